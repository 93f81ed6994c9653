#include <mlsize/catalog/compiled_catalog.hpp>

#include <mlsize/support/date.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/utf8.hpp>

#include "core/catalog/catalog_entries.hpp"
#include "core/support/identifier.hpp"
#include "core/support/snapshot_bytes.hpp"

#include <cmath>
#include <cstring>
#include <optional>

namespace mlsize {
namespace {

constexpr std::string_view k_magic(k_compiled_catalog_magic, sizeof k_compiled_catalog_magic - 1);
constexpr std::uint32_t k_byte_order = 0x01020304;
constexpr std::size_t k_header_bytes = k_magic.size() + 3 * sizeof(std::uint32_t) + 2 * sizeof(std::uint64_t);
constexpr std::string_view k_compile_hint =
    "compile it again from its YAML or price files: mlsize catalog compile FILE.yaml... --output FILE, or "
    "mlsize catalog import ... --compiled (docs/catalogue.md#compiled-catalogues)";

// FNV-1a, 64 bits (Fowler, Noll, Vo; draft-eastlake-fnv-21 §2): finds a flipped or lost
// byte, not a forger, which the validation of every entry is for.
std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// The checks the YAML reader makes (catalog_loader.cpp), made again on what the bytes hold:
// each failure names the entry and the field.
class EntryCheck {
 public:
  EntryCheck(const SourceLocation& where, std::string what) : m_where(where), m_what(std::move(what)) {}

  void id(const std::string& id, std::string_view field = "id") const {
    if (!is_valid_id(id)) fail(field, "is not a valid id");
  }
  void text(const std::string& value, std::string_view field) const {
    if (value.empty()) fail(field, "is empty");
  }
  void date(const std::string& value, std::string_view field) const {
    if (!is_iso_date(value)) fail(field, "is not a date written YYYY-MM-DD");
  }
  void region(const std::string& value) const {
    if (!value.empty() && !is_region_name(value)) fail("region", "is not a region as providers spell it");
  }
  void positive(const std::optional<double>& value, std::string_view field) const {
    if (value && !(*value > 0)) fail(field, "is not above 0");
  }
  void non_negative(const std::optional<double>& value, std::string_view field) const {
    if (value && !(*value >= 0)) fail(field, "is negative");
  }
  void count(const std::optional<int>& value, std::string_view field) const {
    if (value && (*value < 1 || *value > 1'000'000)) fail(field, "is not a whole number from 1 to 1000000");
  }
  void share(const std::optional<double>& value, std::string_view field) const {
    if (value && !(*value >= 0 && *value < 1)) fail(field, "is not a share from 0 to below 1");
  }
  [[noreturn]] void fail(std::string_view field, std::string_view problem) const {
    Error error(ErrorKind::input,
                "the compiled catalogue holds an entry that is not valid: field \"" + std::string(field) + "\" of " +
                    m_what + " " + std::string(problem),
                std::string(k_compile_hint));
    error.at(m_where);
    throw error;
  }

 private:
  const SourceLocation& m_where;
  std::string m_what;
};

std::optional<double> value(const std::optional<Usd>& usd) {
  return usd ? std::optional<double>(usd->value) : std::nullopt;
}
std::optional<double> value(const std::optional<Bytes>& bytes) {
  return bytes ? std::optional<double>(bytes->value) : std::nullopt;
}

void check_availability(const EntryCheck& check, const OnDemandLimit& limit, const SpotInterruptions& spot) {
  check.count(limit.devices, "on_demand_limit.devices");
  for (const ReservationChannel& channel : limit.channels) {
    check.text(channel.name, "on_demand_limit.channels.name");
    check.count(channel.max_machines, "on_demand_limit.channels.max_machines");
    check.count(channel.min_devices, "on_demand_limit.channels.min_devices");
    check.count(channel.max_devices, "on_demand_limit.channels.max_devices");
    check.positive(channel.max_days, "on_demand_limit.channels.max_days");
  }
  check.non_negative(spot.per_instance_hour, "spot_interruptions.per_instance_hour");
}

void check_offering_terms(const EntryCheck& check, const Billing& billing, const CommitmentDiscount& discount) {
  check.positive(billing.granularity_seconds, "billing.granularity_seconds");
  check.non_negative(billing.minimum_seconds, "billing.minimum_seconds");
  check.share(discount.one_year, "reserved_discount.1y");
  check.share(discount.three_year, "reserved_discount.3y");
}

void check_provider(const SourceLocation& r, const Provider& p) {
  const EntryCheck check(r, "provider \"" + p.id + "\"");
  check.id(p.id);
  check_offering_terms(check, p.billing, p.reserved_discount);
  check_availability(check, p.on_demand_limit, p.spot_interruptions);
  check.text(p.source, "source");
  check.date(p.as_of, "as_of");
}

void check_device(const SourceLocation& r, const Device& d) {
  const EntryCheck check(r, "device \"" + d.id + "\"");
  check.id(d.id);
  for (const std::string& alias : d.aliases) check.id(alias, "aliases");
  check.text(d.name, "name");
  check.text(d.vendor, "vendor");
  if (d.kind != DeviceKind::cpu && !d.memory) check.fail("memory_gib", "is missing (only cpu devices may omit it)");
  check.positive(value(d.memory), "memory_gib");
  check.non_negative(value(d.reserved), "reserved_gib");
  if (d.reserved && (!d.memory || d.reserved->value >= d.memory->value)) {
    check.fail("reserved_gib", "is not below the device's memory");
  }
  check.positive(d.memory_bandwidth_bytes_per_s, "memory_bandwidth_gbs");
  for (const std::optional<double>& peak : d.peak_flops_per_s) check.positive(peak, "peak_tflops");
  check.count(d.cores, "cores");
  if (d.interconnect) {
    check.text(d.interconnect->kind, "interconnect.kind");
    check.positive(d.interconnect->bandwidth_bytes_per_s, "interconnect.bandwidth_gbs");
  }
  check.positive(d.tdp_w, "tdp_w");
  check.count(d.compute_capability, "compute_capability");
  check.count(d.multiprocessors, "multiprocessors");
  check.positive(value(d.launch_price), "launch_price_usd");
  check.text(d.source, "source");
  check.date(d.as_of, "as_of");
}

void check_price(const EntryCheck& check, const RegionalPrice& price) {
  check.region(price.region);
  check.non_negative(value(price.on_demand), "price_per_hour_usd");
  check.non_negative(value(price.spot), "spot_price_per_hour_usd");
  check.non_negative(value(price.reserved_1y), "reserved_1y_price_per_hour_usd");
  check.non_negative(value(price.reserved_3y), "reserved_3y_price_per_hour_usd");
}

void check_offering(const SourceLocation& r, const Offering& o) {
  const EntryCheck check(r, "offering \"" + o.id + "\"");
  check.id(o.id);
  check.text(o.provider, "provider");
  check.text(o.name, "name");
  check.text(o.device_id, "device");
  check.count(o.devices_per_unit, "devices_per_unit");
  check.count(o.vcpus, "vcpus");
  check.count(o.threads_per_core, "threads_per_core");
  check.positive(value(o.host_memory), "host_memory_gib");
  check_price(check, o.price);
  for (const RegionalPrice& price : o.other_regions) {
    check_price(check, price);
    if (price.region.empty() || !price.on_demand) check.fail("prices", "lists a region without a name or a price");
  }
  check.count(o.max_units, "max_units");
  check.positive(value(o.purchase_price), "purchase_price_usd");
  check.positive(o.power_w, "power_w");
  check.positive(o.limits.session_hours, "limits.session_hours");
  check.positive(o.limits.weekly_hours, "limits.weekly_hours");
  check.positive(o.network_gbps, "network_gbps");
  if (o.interconnect) {
    check.text(o.interconnect->kind, "interconnect.kind");
    check.positive(o.interconnect->bandwidth_bytes_per_s, "interconnect.bandwidth_gbs");
  }
  if (o.kind == OfferingKind::on_prem && !o.purchase_price) check.fail("purchase_price_usd", "is missing");
  if (o.kind != OfferingKind::on_prem && !o.price.on_demand) check.fail("price_per_hour_usd", "is missing");
  check.text(o.source, "source");
  check.date(o.as_of, "as_of");
}

template <class T>
void put_raw(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}
template <class T>
T get_raw(std::string_view bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

}  // namespace

bool is_compiled_catalog(std::string_view bytes) {
  return bytes.starts_with(k_magic);
}

std::string write_compiled_catalog(const Catalog& overlay) {
  snapshot::Writer w;
  write_catalog_entries(w, overlay);
  const std::string payload = w.take();
  std::string out(k_magic);
  put_raw(out, k_byte_order);
  put_raw(out, k_compiled_catalog_format);
  put_raw(out, k_catalog_layout_version);
  put_raw(out, static_cast<std::uint64_t>(payload.size()));
  put_raw(out, fnv1a(payload));
  out += payload;
  return out;
}

void lay_compiled_catalog(Catalog& catalog, std::string_view bytes, std::string_view source_name) {
  const SourceLocation where{std::string(source_name), 0, 0, {}};
  const auto refuse = [&](const std::string& message, std::string_view hint) {
    Error error(ErrorKind::input, message, std::string(hint));
    error.at(where);
    return error;
  };
  if (!is_compiled_catalog(bytes)) throw refuse("not a compiled catalogue (its first bytes differ)", k_compile_hint);
  if (bytes.size() < k_header_bytes) {
    throw refuse("the compiled catalogue is corrupt: it ends inside its header", k_compile_hint);
  }
  std::size_t at = k_magic.size();
  const auto order = get_raw<std::uint32_t>(bytes, at);
  const auto format = get_raw<std::uint32_t>(bytes, at += sizeof(std::uint32_t));
  const auto layout = get_raw<std::uint32_t>(bytes, at += sizeof(std::uint32_t));
  const auto size = get_raw<std::uint64_t>(bytes, at += sizeof(std::uint32_t));
  const auto checksum = get_raw<std::uint64_t>(bytes, at += sizeof(std::uint64_t));
  if (order != k_byte_order) {
    throw refuse("the compiled catalogue was written on a machine of another byte order", k_compile_hint);
  }
  if (format != k_compiled_catalog_format || layout != k_catalog_layout_version) {
    throw refuse("the compiled catalogue is stale: it was written by another version of mlsize (format " +
                     std::to_string(format) + ", layout " + std::to_string(layout) + "; this one reads format " +
                     std::to_string(k_compiled_catalog_format) + ", layout " +
                     std::to_string(k_catalog_layout_version) + ")",
                 k_compile_hint);
  }
  const std::string_view payload = bytes.substr(k_header_bytes);
  if (size != payload.size()) {
    throw refuse("the compiled catalogue is corrupt: its header gives " + std::to_string(size) +
                     " bytes of entries, the file holds " + std::to_string(payload.size()),
                 k_compile_hint);
  }
  if (fnv1a(payload) != checksum) {
    throw refuse("the compiled catalogue is corrupt: its checksum does not match its bytes", k_compile_hint);
  }
  snapshot::Reader r(payload, where, std::string(k_compile_hint));
  EntryChecks checks;
  checks.provider = [&](const Provider& p) { check_provider(where, p); };
  checks.device = [&](const Device& d) { check_device(where, d); };
  checks.offering = [&](const Offering& o) { check_offering(where, o); };
  read_catalog_entries(r, catalog, checks);
}

Catalog read_compiled_catalog(std::string_view bytes, std::string_view source_name) {
  Catalog overlay;
  lay_compiled_catalog(overlay, bytes, source_name);
  return overlay;
}

}  // namespace mlsize
