#include <mlsize/catalog/catalog_loader.hpp>

#include <mlsize/support/date.hpp>
#include <mlsize/support/embedded_data.hpp>
#include <mlsize/support/text_distance.hpp>
#include <mlsize/support/utf8.hpp>

#include "core/catalog/catalog_fields.hpp"
#include "core/support/identifier.hpp"
#include "core/support/yaml_documents.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mlsize {
namespace {

using namespace catalog_yaml;

// `device "a100-80gb-sxm"` when the entry has a usable id, else `a device`.
std::string describe(const YAML::Node& node, std::string_view noun) {
  if (node.IsMap()) {
    const YAML::Node id = node["id"];
    if (id && id.IsScalar() && is_valid_id(id.Scalar())) return std::string(noun) + " " + in_quotes(id.Scalar());
  }
  return (noun.front() == 'o' ? "an " : "a ") + std::string(noun);
}

std::string read_id(const FieldReader& fields) {
  std::string id = fields.required_string("id");
  if (!is_valid_id(id)) {
    fields.fail_value("id", "is not a valid id",
                      "lowercase letters, digits, '-', '.', '_', starting with a letter or digit");
  }
  return id;
}

template <NamedEnum Enum>
Enum read_enum(const FieldReader& fields, std::string_view key) {
  const std::string text = fields.required_string(key);
  if (auto value = parse_name<Enum>(text)) return *value;
  const std::span<const std::string_view> names = mlsize::names<Enum>();
  std::string hint = did_you_mean(text, names);
  fields.source().fail(fields.node(key).Mark(),
                       "field " + in_quotes(key) + " of " + fields.what() + " must be one of " + join_names(names) +
                           " (got " + in_quotes(text) + ")",
                       hint);
}

void read_provenance(const FieldReader& fields, std::string& source, std::string& as_of) {
  source = fields.required_string("source");
  as_of = fields.required_string("as_of");
  if (!is_iso_date(as_of)) fields.fail_value("as_of", "is not a date", "a date written YYYY-MM-DD");
}

constexpr std::array<std::string_view, 19> k_device_fields{"id",
                                                           "name",
                                                           "kind",
                                                           "vendor",
                                                           "memory_gib",
                                                           "memory_gb",
                                                           "reserved_gib",
                                                           "memory_bandwidth_gbs",
                                                           "peak_tflops",
                                                           "cores",
                                                           "interconnect",
                                                           "tdp_w",
                                                           "host_arch",
                                                           "launch_price_usd",
                                                           "source",
                                                           "as_of",
                                                           "aliases",
                                                           "compute_capability",
                                                           "multiprocessors"};
constexpr std::array<std::string_view, 2> k_interconnect_fields{"kind", "bandwidth_gbs"};

Device read_device(const SourceText& source, const YAML::Node& node) {
  const FieldReader named(source, node, describe(node, "device"), k_device_fields);
  Device device;
  device.id = read_id(named);
  if (named.has("aliases")) {
    const YAML::Node aliases = named.node("aliases");
    if (!aliases.IsSequence()) named.fail_value("aliases", "must be a list of ids", "a list such as [a100-80gb]");
    for (const YAML::Node& alias : aliases) {
      if (!alias.IsScalar() || !is_valid_id(alias.Scalar())) {
        source.fail(alias.Mark(), "alias of device " + in_quotes(device.id) + " is not a valid id",
                    "lowercase letters, digits, '-', '.', '_', starting with a letter or digit");
      }
      device.aliases.push_back(alias.Scalar());
    }
  }
  device.name = named.required_string("name");
  device.kind = read_enum<DeviceKind>(named, "kind");
  device.vendor = named.required_string("vendor");
  // memory_gib: the memory as the driver reports it (nvidia-smi's MiB / 1024), or the
  // headline size of binary DRAM; memory_gb: a decimal figure (docs/catalogue.md#capacity).
  if (named.has("memory_gib") && named.has("memory_gb")) {
    named.fail_value("memory_gb", "is given with memory_gib", "memory_gib (binary) or memory_gb (decimal), not both");
  }
  if (auto gib = named.optional_positive("memory_gib")) device.memory = Bytes(*gib * k_gibi);
  if (auto gb = named.optional_positive("memory_gb")) device.memory = Bytes(*gb * k_giga);
  if (device.kind != DeviceKind::cpu && !device.memory) {
    source.fail(node.Mark(), "device " + in_quotes(device.id) + " lacks the required field \"memory_gib\"",
                "only cpu devices may omit memory_gib (their memory is the offering's host_memory_gib)");
  }
  if (auto reserved = named.optional_non_negative("reserved_gib")) {
    const double gib = *reserved;
    if (!device.memory || gib * k_gibi >= device.memory->value) {
      named.fail_value("reserved_gib", "is not below the device's memory",
                       "the GiB the runtime keeps, below the memory, e.g. 0.4");
    }
    device.reserved = Bytes(gib * k_gibi);
  }
  if (auto gbs = named.optional_positive("memory_bandwidth_gbs")) device.memory_bandwidth_bytes_per_s = *gbs * k_giga;
  if (named.has("peak_tflops")) {
    const FieldReader peak(source, named.node("peak_tflops"), "peak_tflops of device " + in_quotes(device.id),
                           names<DType>());
    for (const EnumName<DType>& dtype : name_table<DType>()) {
      if (auto tflops = peak.optional_positive(dtype.name)) {
        device.peak_flops_per_s[static_cast<std::size_t>(dtype.value)] = *tflops * 1e12;
      }
    }
  }
  device.cores = named.optional_count("cores");
  if (device.cores && device.kind != DeviceKind::cpu) {
    named.fail_value("cores", "is given for a device that is not a cpu",
                     "leave cores out; it counts the CPU cores peak_tflops covers");
  }
  if (named.has("interconnect")) {
    const FieldReader link(source, named.node("interconnect"), "interconnect of device " + in_quotes(device.id),
                           k_interconnect_fields);
    device.interconnect = Interconnect{link.required_string("kind"), link.required_positive("bandwidth_gbs") * k_giga};
  }
  device.tdp_w = named.optional_positive("tdp_w");
  if (auto price = named.optional_positive("launch_price_usd")) device.launch_price = Usd(*price);
  if (named.has("host_arch")) device.host_arch = read_enum<HostArch>(named, "host_arch");
  if (named.has("compute_capability")) {
    // "8.9" as NVIDIA's table writes it (developer.nvidia.com/cuda-gpus): a major of 1 to 99
    // and a minor digit.
    const std::string text = named.optional_string("compute_capability");
    const std::size_t dot = text.find('.');
    const bool well_formed =
        dot != std::string::npos && dot >= 1 && dot <= 2 && text.size() == dot + 2 &&
        std::all_of(text.begin(), text.end(), [](char c) { return c == '.' || (c >= '0' && c <= '9'); }) &&
        text.front() != '0';
    if (!well_formed) {
      named.fail_value("compute_capability", "is not a compute capability",
                       "NVIDIA's major.minor, e.g. \"8.0\" or \"12.0\"");
    }
    if (device.vendor != "nvidia") {
      named.fail_value("compute_capability", "is given for a device whose vendor is not nvidia",
                       "leave it out: it is NVIDIA's numbering of its GPU generations");
    }
    device.compute_capability = std::stoi(text.substr(0, dot)) * 10 + (text[dot + 1] - '0');
  }
  device.multiprocessors = named.optional_count("multiprocessors");
  if (device.multiprocessors && device.kind != DeviceKind::gpu) {
    named.fail_value("multiprocessors", "is given for a device that is not a gpu",
                     "leave it out: it counts a GPU's streaming multiprocessors");
  }
  read_provenance(named, device.source, device.as_of);
  device.defined_at = source.location(node.Mark());
  return device;
}

constexpr std::array<std::string_view, 5> k_price_fields{"price_per_hour_usd", "spot_price_per_hour_usd",
                                                         "reserved_1y_price_per_hour_usd",
                                                         "reserved_3y_price_per_hour_usd", "region"};

// The price fields of an offering, or of one entry of its `prices:` list.
RegionalPrice read_price(const FieldReader& fields) {
  RegionalPrice price;
  price.region = fields.optional_string("region");
  if (!price.region.empty() && !is_region_name(price.region)) {
    fields.fail_value("region", "must be a region as providers spell it",
                      "1 to 128 printable ASCII characters, e.g. us-east-1");
  }
  if (auto usd = fields.optional_non_negative("price_per_hour_usd")) price.on_demand = Usd(*usd);
  if (auto usd = fields.optional_non_negative("spot_price_per_hour_usd")) price.spot = Usd(*usd);
  if (auto usd = fields.optional_non_negative("reserved_1y_price_per_hour_usd")) price.reserved_1y = Usd(*usd);
  if (auto usd = fields.optional_non_negative("reserved_3y_price_per_hour_usd")) price.reserved_3y = Usd(*usd);
  return price;
}

// `prices:`, one entry per region: each names its region and has an on-demand price. The
// cheapest on demand becomes the offering's `price`, the others `other_regions`.
void read_regional_prices(const SourceText& source, const FieldReader& named, Offering& offering) {
  for (std::string_view key : k_price_fields) {
    if (named.has(key)) {
      named.fail_value(key, "is given with \"prices\"",
                       "the price fields at the top of the offering (one region) or a \"prices\" list, not both");
    }
  }
  const YAML::Node list = named.node("prices");
  if (!list.IsSequence() || list.size() == 0) {
    named.fail_value("prices", "must be a non-empty list",
                     "a list such as [{region: us-east-1, price_per_hour_usd: 3.9}]");
  }
  std::vector<RegionalPrice> prices;
  std::set<std::string, std::less<>> regions;
  for (const YAML::Node& item : list) {
    const FieldReader entry(source, item, "a price of offering " + in_quotes(offering.id), k_price_fields);
    RegionalPrice price = read_price(entry);
    if (price.region.empty()) {
      source.fail(item.Mark(), "a price of offering " + in_quotes(offering.id) + " lacks \"region\"",
                  "the provider's region name, e.g. us-east-1");
    }
    if (!price.on_demand) {
      source.fail(item.Mark(), "a price of offering " + in_quotes(offering.id) + " lacks \"price_per_hour_usd\"",
                  "the on-demand price of one unit for one hour in USD");
    }
    if (!regions.insert(price.region).second) {
      entry.fail_value("region", "is listed twice for this offering", "one entry per region");
    }
    prices.push_back(std::move(price));
  }
  std::stable_sort(prices.begin(), prices.end(), [](const RegionalPrice& a, const RegionalPrice& b) {
    return a.on_demand->value < b.on_demand->value;
  });
  offering.price = std::move(prices.front());
  offering.other_regions.assign(std::make_move_iterator(prices.begin() + 1), std::make_move_iterator(prices.end()));
}

constexpr std::array<std::string_view, 23> k_offering_fields{"id",
                                                             "provider",
                                                             "kind",
                                                             "name",
                                                             "device",
                                                             "devices_per_unit",
                                                             "vcpus",
                                                             "threads_per_core",
                                                             "host_memory_gib",
                                                             "price_per_hour_usd",
                                                             "spot_price_per_hour_usd",
                                                             "reserved_1y_price_per_hour_usd",
                                                             "reserved_3y_price_per_hour_usd",
                                                             "region",
                                                             "prices",
                                                             "max_units",
                                                             "purchase_price_usd",
                                                             "power_w",
                                                             "limits",
                                                             "network_gbps",
                                                             "interconnect",
                                                             "source",
                                                             "as_of"};
constexpr std::array<std::string_view, 3> k_limit_fields{"session_hours", "weekly_hours", "note"};

Offering read_offering(const SourceText& source, const YAML::Node& node) {
  const FieldReader named(source, node, describe(node, "offering"), k_offering_fields);
  Offering offering;
  offering.id = read_id(named);
  offering.provider = named.required_string("provider");
  offering.kind = read_enum<OfferingKind>(named, "kind");
  offering.name = named.required_string("name");
  offering.device_id = named.required_string("device");
  if (!named.has("devices_per_unit")) {
    source.fail(node.Mark(), "offering " + in_quotes(offering.id) + " lacks the required field \"devices_per_unit\"");
  }
  offering.devices_per_unit = *named.optional_count("devices_per_unit");
  offering.vcpus = named.optional_count("vcpus");
  offering.threads_per_core = named.optional_count("threads_per_core");
  if (auto gib = named.optional_positive("host_memory_gib")) offering.host_memory = Bytes(*gib * k_gibi);
  if (named.has("prices")) {
    read_regional_prices(source, named, offering);
  } else {
    offering.price = read_price(named);
  }
  offering.max_units = named.optional_count("max_units");
  if (auto price = named.optional_positive("purchase_price_usd")) offering.purchase_price = Usd(*price);
  offering.power_w = named.optional_positive("power_w");
  offering.network_gbps = named.optional_positive("network_gbps");
  if (named.has("interconnect")) {
    const FieldReader link(source, named.node("interconnect"), "interconnect of offering " + in_quotes(offering.id),
                           k_interconnect_fields);
    offering.interconnect =
        Interconnect{link.required_string("kind"), link.required_positive("bandwidth_gbs") * k_giga};
  }
  if (named.has("limits")) {
    const FieldReader limits(source, named.node("limits"), "limits of offering " + in_quotes(offering.id),
                             k_limit_fields);
    offering.limits.session_hours = limits.optional_positive("session_hours");
    offering.limits.weekly_hours = limits.optional_positive("weekly_hours");
    offering.limits.note = limits.optional_string("note");
  }
  if (offering.kind == OfferingKind::on_prem && !offering.purchase_price) {
    source.fail(node.Mark(), "on-prem offering " + in_quotes(offering.id) + " lacks \"purchase_price_usd\"",
                "on-premise hardware is costed from its purchase price and power draw");
  }
  if (offering.kind != OfferingKind::on_prem && !offering.price.on_demand) {
    source.fail(node.Mark(), "offering " + in_quotes(offering.id) + " lacks \"price_per_hour_usd\"",
                "cloud offerings need an on-demand price per unit-hour; free tiers use 0");
  }
  read_provenance(named, offering.source, offering.as_of);
  offering.defined_at = source.location(node.Mark());
  return offering;
}

constexpr std::array<std::string_view, 8> k_provider_fields{
    "id", "billing", "reserved_discount", "on_demand_limit", "spot_interruptions", "marketplace", "source", "as_of"};
constexpr std::array<std::string_view, 4> k_on_demand_limit_fields{"devices", "beyond", "channels", "source"};
constexpr std::array<std::string_view, 5> k_channel_fields{"name", "max_machines", "min_devices", "max_devices",
                                                           "max_days"};
constexpr std::array<std::string_view, 2> k_spot_interruption_fields{"per_instance_hour", "source"};
constexpr std::array<std::string_view, 2> k_billing_fields{"granularity_seconds", "minimum_seconds"};
constexpr std::array<std::string_view, 3> k_discount_fields{"1y", "3y", "source"};

std::optional<double> read_share(const FieldReader& fields, std::string_view key) {
  std::optional<double> share = fields.optional_non_negative(key);
  if (share && *share >= 1.0) {
    fields.fail_value(key, "is not below 1", "the share taken off the on-demand price, e.g. 0.37 for 37 %");
  }
  return share;
}

Provider read_provider(const SourceText& source, const YAML::Node& node) {
  const FieldReader named(source, node, describe(node, "provider"), k_provider_fields);
  Provider provider;
  provider.id = read_id(named);
  if (named.has("billing")) {
    const FieldReader billing(source, named.node("billing"), "billing of provider " + in_quotes(provider.id),
                              k_billing_fields);
    provider.billing.granularity_seconds = billing.required_positive("granularity_seconds");
    provider.billing.minimum_seconds = billing.optional_non_negative("minimum_seconds").value_or(0.0);
  }
  if (named.has("reserved_discount")) {
    const FieldReader discount(source, named.node("reserved_discount"),
                               "reserved_discount of provider " + in_quotes(provider.id), k_discount_fields);
    provider.reserved_discount.one_year = read_share(discount, "1y");
    provider.reserved_discount.three_year = read_share(discount, "3y");
    provider.reserved_discount.source = discount.required_string("source");
  }
  if (named.has("on_demand_limit")) {
    const FieldReader limit(source, named.node("on_demand_limit"),
                            "on_demand_limit of provider " + in_quotes(provider.id), k_on_demand_limit_fields);
    provider.on_demand_limit.devices = limit.optional_count("devices");
    provider.on_demand_limit.beyond = limit.required_string("beyond");
    if (limit.has("channels")) {
      const YAML::Node channels = limit.node("channels");
      if (!channels.IsSequence()) {
        limit.fail_value("channels", "must be a list of reservations",
                         "a list such as [{name: EC2 Capacity Block for ML, max_machines: 64, max_days: 182}]");
      }
      for (const YAML::Node& item : channels) {
        const FieldReader channel(source, item, "a channel of provider " + in_quotes(provider.id), k_channel_fields);
        ReservationChannel read;
        read.name = channel.required_string("name");
        read.max_machines = channel.optional_count("max_machines");
        read.min_devices = channel.optional_count("min_devices");
        read.max_devices = channel.optional_count("max_devices");
        read.max_days = channel.optional_positive("max_days");
        if (read.min_devices && read.max_devices && *read.min_devices > *read.max_devices) {
          channel.fail_value("min_devices", "is above max_devices", "a range such as 16 to 512");
        }
        provider.on_demand_limit.channels.push_back(std::move(read));
      }
    }
    provider.on_demand_limit.source = limit.required_string("source");
  }
  if (named.has("spot_interruptions")) {
    const FieldReader spot(source, named.node("spot_interruptions"),
                           "spot_interruptions of provider " + in_quotes(provider.id), k_spot_interruption_fields);
    provider.spot_interruptions.per_instance_hour = spot.optional_non_negative("per_instance_hour");
    provider.spot_interruptions.source = spot.required_string("source");
  }
  provider.marketplace = named.optional_string("marketplace");
  read_provenance(named, provider.source, provider.as_of);
  provider.defined_at = source.location(node.Mark());
  return provider;
}

constexpr std::array<std::string_view, 3> k_top_level_fields{"providers", "devices", "offerings"};

template <class Entry, class Reader>
void read_list(Catalog& catalog, const FieldReader& top, std::string_view key, Reader read) {
  const SourceText& source = top.source();
  const YAML::Node list = top.node(key);
  if (!list.IsSequence()) source.fail(top.value_mark(key), in_quotes(key) + " must be a list");
  std::set<std::string, std::less<>> ids;
  for (const YAML::Node& item : list) {
    Entry entry = read(source, item);
    if (!ids.insert(entry.id).second) {
      source.fail(item.Mark(), "duplicate id " + in_quotes(entry.id) + " in " + std::string(key),
                  "ids are unique within a file; a later file overrides an earlier one by id");
    }
    catalog.put(std::move(entry));
  }
}

}  // namespace

void load_catalog_yaml(Catalog& catalog, std::string_view text, std::string_view source_name) {
  if (text.size() > k_max_overlay_bytes) {
    Error error(
        ErrorKind::input,
        "catalogue file is larger than the limit of " + std::to_string(k_max_overlay_bytes >> 20) + " MiB",
        "about 4,500 offerings as catalog import writes them, 1.5 s to load; keep an overlay to the offerings you "
        "plan on (docs/reliability.md#limits)");
    error.at(SourceLocation{std::string(source_name), 0, 0, {}});
    throw error;
  }
  const SourceText source(text, source_name);
  // One document only, found in the text: yaml-cpp's LoadAll can allocate without end
  // on malformed input (found by fuzz/fuzz_catalog; see yaml_documents.hpp).
  const YAML::Node root = load_one_document(
      text, "catalogue", "catalogue entries need only a few levels of nesting",
      "expected a mapping with \"devices:\" and/or \"offerings:\"",
      [&](const YAML::Mark& mark, std::string message, std::string hint) { source.fail(mark, message, hint); });
  const FieldReader top(source, root, "the catalogue file", k_top_level_fields);
  // Staged so that a file with an error adds nothing.
  Catalog staged = catalog;
  if (top.has("providers")) read_list<Provider>(staged, top, "providers", read_provider);
  if (top.has("devices")) read_list<Device>(staged, top, "devices", read_device);
  if (top.has("offerings")) read_list<Offering>(staged, top, "offerings", read_offering);
  catalog = std::move(staged);
}

Catalog load_default_catalog_yaml(bool with_refreshed_prices) {
  Catalog catalog;
  for (const EmbeddedFile& file : default_catalog_files()) {
    if (!with_refreshed_prices && std::string_view(file.name).starts_with("prices-")) continue;
    load_catalog_yaml(catalog, file.text, std::string("<embedded>/data/catalog/") + std::string(file.name));
  }
  catalog.check_references();
  return catalog;
}

}  // namespace mlsize
