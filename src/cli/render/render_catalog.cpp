#include "cli/render/render_catalog.hpp"

#include "cli/render/format.hpp"
#include "cli/render/json_object.hpp"
#include "cli/render/json_text.hpp"
#include "cli/render/json_whole.hpp"

#include "cli/render/text_table.hpp"
#include "cli/render/yaml_scalar.hpp"

#include <mlsize/estimate/kernels.hpp>
#include <mlsize/support/number_format.hpp>
#include <mlsize/support/units.hpp>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>

namespace mlsize::cli {
namespace {

using Json = nlohmann::ordered_json;  // keys in insertion order: deterministic, readable

constexpr double k_tera = 1e12;

template <class T, class Convert>
std::string optional_text(const std::optional<T>& value, Convert convert, std::string none = "") {
  return value ? format_shortest(convert(*value)) : none;
}

// Figures in the catalogue file's units (docs/catalogue.md), from the core's SI units.
double gib(Bytes bytes) {
  return bytes.value / k_gibi;
}
double gbs(double bytes_per_s) {
  return bytes_per_s / k_giga;
}
double tflops(double flops_per_s) {
  return flops_per_s / k_tera;
}
double usd(Usd amount) {
  return amount.value;
}
double plain(double value) {
  return value;
}
double whole_number(int value) {
  return value;
}

// ---------------------------------------------------------------------------------------------
// JSON

template <class T, class Convert>
Json optional_json(const std::optional<T>& value, Convert convert) {
  return value ? Json(convert(*value)) : Json(nullptr);
}

Json device_json(const Device& device) {
  Json json = Json::object();
  json_add(json, "id", device.id);
  json_add(json, "aliases", device.aliases);
  json_add(json, "name", device.name);
  json_add(json, "kind", to_string(device.kind));
  json_add(json, "vendor", device.vendor);
  json_add(json, "memory_bytes", device.memory ? json_whole(device.memory->value) : Json(nullptr));
  // What a plan may use: the memory less the runtime's reserve (Device::usable_memory).
  const std::optional<Bytes> usable = device.usable_memory();
  const Json capacity = usable ? json_whole(usable->value) : Json(nullptr);
  json_add(json, "capacity_bytes", capacity);
  // The same figure under its first name, for scripts written before capacity_bytes: a plan
  // may use all but --memory-headroom of it (docs/cli.md#catalog).
  json_add(json, "usable_memory_bytes", capacity);
  json_add(json, "memory_bandwidth_bytes_per_s", optional_json(device.memory_bandwidth_bytes_per_s, plain));
  Json peak = Json::object();
  for (std::size_t i = 0; i < k_dtype_count; ++i) {
    json_add(peak, to_string(static_cast<DType>(i)), optional_json(device.peak_flops_per_s[i], tflops));
  }
  json_add(json, "peak_tflops", peak);
  json_add(json, "cores", device.cores ? Json(*device.cores) : Json(nullptr));
  json_add(json, "interconnect",
           device.interconnect ? json_object({{"kind", device.interconnect->kind},
                                              {"bandwidth_bytes_per_s", device.interconnect->bandwidth_bytes_per_s}})
                               : Json(nullptr));
  json_add(json, "tdp_w", optional_json(device.tdp_w, plain));
  json_add(json, "launch_price_usd", optional_json(device.launch_price, usd));
  json_add(json, "host_arch", to_string(device.host_arch));
  json_add(json, "compute_capability",
           device.compute_capability ? Json(compute_capability_text(*device.compute_capability)) : Json(nullptr));
  json_add(json, "multiprocessors", device.multiprocessors ? Json(*device.multiprocessors) : Json(nullptr));
  json_add(json, "source", device.source);
  json_add(json, "as_of", device.as_of);
  return json;
}

std::vector<const RegionalPrice*> all_regions(const Offering& offering) {
  std::vector<const RegionalPrice*> prices{&offering.price};
  for (const RegionalPrice& price : offering.other_regions) prices.push_back(&price);
  return prices;
}

Json price_json(const RegionalPrice& price) {
  return json_object({{"region", price.region.empty() ? Json(nullptr) : Json(price.region)},
                      {"price_per_hour_usd", optional_json(price.on_demand, usd)},
                      {"spot_price_per_hour_usd", optional_json(price.spot, usd)},
                      {"reserved_1y_price_per_hour_usd", optional_json(price.reserved_1y, usd)},
                      {"reserved_3y_price_per_hour_usd", optional_json(price.reserved_3y, usd)}});
}

Json offering_json(const Offering& offering) {
  Json json = Json::object();
  json_add(json, "id", offering.id);
  json_add(json, "provider", offering.provider);
  json_add(json, "kind", to_string(offering.kind));
  json_add(json, "name", offering.name);
  json_add(json, "device", offering.device_id);
  json_add(json, "devices_per_unit", offering.devices_per_unit);
  json_add(json, "vcpus", optional_json(offering.vcpus, [](int count) { return count; }));
  json_add(json, "host_memory_bytes", offering.host_memory ? json_whole(offering.host_memory->value) : Json(nullptr));
  json_add(json, "price_per_hour_usd", optional_json(offering.price.on_demand, usd));
  json_add(json, "spot_price_per_hour_usd", optional_json(offering.price.spot, usd));
  json_add(json, "reserved_1y_price_per_hour_usd", optional_json(offering.price.reserved_1y, usd));
  json_add(json, "reserved_3y_price_per_hour_usd", optional_json(offering.price.reserved_3y, usd));
  json_add(json, "region", offering.price.region.empty() ? Json(nullptr) : Json(offering.price.region));
  // Every region's prices, the one above first (docs/catalogue.md#prices).
  Json prices = Json::array();
  for (const RegionalPrice* price : all_regions(offering)) prices.push_back(price_json(*price));
  json_add(json, "prices", std::move(prices));
  json_add(json, "reserved_discount",
           json_object({{"1y", optional_json(offering.terms->reserved_discount.one_year, plain)},
                        {"3y", optional_json(offering.terms->reserved_discount.three_year, plain)}}));
  json_add(json, "max_units", optional_json(offering.max_units, [](int count) { return count; }));
  json_add(json, "purchase_price_usd", optional_json(offering.purchase_price, usd));
  json_add(json, "power_w", optional_json(offering.power_w, plain));
  json_add(json, "network_gbps", optional_json(offering.network_gbps, plain));
  json_add(json, "billing",
           json_object({{"granularity_seconds", offering.terms->billing.granularity_seconds},
                        {"minimum_seconds", offering.terms->billing.minimum_seconds}}));
  json_add(json, "limits",
           json_object({{"session_hours", optional_json(offering.limits.session_hours, plain)},
                        {"weekly_hours", optional_json(offering.limits.weekly_hours, plain)},
                        {"note", offering.limits.note.empty() ? Json(nullptr) : Json(offering.limits.note)}}));
  json_add(json, "source", offering.source);
  json_add(json, "as_of", offering.as_of);
  return json;
}

// ---------------------------------------------------------------------------------------------
// CSV

// Each column: its header and its cell for a device and for an offering.
struct CsvColumn {
  std::string header;
  std::function<std::string(const Device&)> device;
  std::function<std::string(const Offering&)> offering;
};

std::vector<CsvColumn> csv_columns() {
  auto none_d = [](const Device&) { return std::string(); };
  auto none_o = [](const Offering&) { return std::string(); };
  std::vector<CsvColumn> columns{
      {"entry", [](const Device&) { return std::string("device"); },
       [](const Offering&) { return std::string("offering"); }},
      {"id", [](const Device& d) { return d.id; }, [](const Offering& o) { return o.id; }},
      {"name", [](const Device& d) { return d.name; }, [](const Offering& o) { return o.name; }},
      {"kind", [](const Device& d) { return std::string(to_string(d.kind)); },
       [](const Offering& o) { return std::string(to_string(o.kind)); }},
      {"aliases", [](const Device& d) { return join(d.aliases, " "); }, none_o},
      {"vendor", [](const Device& d) { return d.vendor; }, none_o},
      {"memory_gib", [](const Device& d) { return optional_text(d.memory, gib); }, none_o},
      {"memory_bandwidth_gbs", [](const Device& d) { return optional_text(d.memory_bandwidth_bytes_per_s, gbs); },
       none_o},
  };
  for (std::size_t i = 0; i < k_dtype_count; ++i) {
    columns.push_back({"peak_tflops_" + std::string(to_string(static_cast<DType>(i))),
                       [i](const Device& d) { return optional_text(d.peak_flops_per_s[i], tflops); }, none_o});
  }
  const std::vector<CsvColumn> rest{
      {"interconnect_kind", [](const Device& d) { return d.interconnect ? d.interconnect->kind : std::string(); },
       none_o},
      {"interconnect_bandwidth_gbs",
       [](const Device& d) {
         return d.interconnect ? format_shortest(gbs(d.interconnect->bandwidth_bytes_per_s)) : "";
       },
       none_o},
      {"cores", [](const Device& d) { return d.cores ? std::to_string(*d.cores) : std::string(); }, none_o},
      {"tdp_w", [](const Device& d) { return optional_text(d.tdp_w, plain); }, none_o},
      {"launch_price_usd", [](const Device& d) { return optional_text(d.launch_price, usd); }, none_o},
      {"provider", none_d, [](const Offering& o) { return o.provider; }},
      {"device", none_d, [](const Offering& o) { return o.device_id; }},
      {"devices_per_unit", none_d, [](const Offering& o) { return std::to_string(o.devices_per_unit); }},
      {"vcpus", none_d, [](const Offering& o) { return optional_text(o.vcpus, whole_number); }},
      {"host_memory_gib", none_d, [](const Offering& o) { return optional_text(o.host_memory, gib); }},
      {"price_per_hour_usd", none_d, [](const Offering& o) { return optional_text(o.price.on_demand, usd); }},
      {"spot_price_per_hour_usd", none_d, [](const Offering& o) { return optional_text(o.price.spot, usd); }},
      {"reserved_1y_price_per_hour_usd", none_d,
       [](const Offering& o) { return optional_text(o.price.reserved_1y, usd); }},
      {"reserved_3y_price_per_hour_usd", none_d,
       [](const Offering& o) { return optional_text(o.price.reserved_3y, usd); }},
      {"region", none_d, [](const Offering& o) { return o.price.region; }},
      {"other_regions", none_d,
       [](const Offering& o) {
         std::string regions;
         for (const RegionalPrice& price : o.other_regions) regions += (regions.empty() ? "" : " ") + price.region;
         return regions;
       }},
      {"max_units", none_d, [](const Offering& o) { return optional_text(o.max_units, whole_number); }},
      {"purchase_price_usd", none_d, [](const Offering& o) { return optional_text(o.purchase_price, usd); }},
      {"power_w", none_d, [](const Offering& o) { return optional_text(o.power_w, plain); }},
      {"session_hours", none_d, [](const Offering& o) { return optional_text(o.limits.session_hours, plain); }},
      {"weekly_hours", none_d, [](const Offering& o) { return optional_text(o.limits.weekly_hours, plain); }},
      {"limits_note", none_d, [](const Offering& o) { return o.limits.note; }},
      {"source", [](const Device& d) { return d.source; }, [](const Offering& o) { return o.source; }},
      {"as_of", [](const Device& d) { return d.as_of; }, [](const Offering& o) { return o.as_of; }},
  };
  columns.insert(columns.end(), rest.begin(), rest.end());
  return columns;
}

template <class Entry, class Cell>
std::vector<std::string> csv_cells(const std::vector<CsvColumn>& columns, const Entry& entry, Cell cell) {
  std::vector<std::string> cells;
  for (const CsvColumn& column : columns) cells.push_back(cell(column, entry));
  return cells;
}

// ---------------------------------------------------------------------------------------------
// YAML

// Text from the catalogue (names, sources, notes): always quoted, so that no YAML reader takes
// a name for a number, a date or a boolean; escaped where it must be (yaml_scalar.hpp).
void yaml_text(YAML::Emitter& out, std::string_view key, const std::string& value) {
  if (value.empty()) return;
  out << YAML::Key << std::string(key) << YAML::Value;
  put_yaml_string(out, value, YamlQuote::always);
}

// An id, a kind or a region: plain unless YAML would retype it (an id "4090").
void yaml_word(YAML::Emitter& out, std::string_view key, const std::string& value) {
  out << YAML::Key << std::string(key) << YAML::Value;
  put_yaml_string(out, value);
}

// A number in its shortest spelling, plain.
void yaml_plain_number(YAML::Emitter& out, std::string_view key, const std::string& value) {
  out << YAML::Key << std::string(key) << YAML::Value << value;
}

template <class T, class Convert>
void yaml_number(YAML::Emitter& out, std::string_view key, const std::optional<T>& value, Convert convert) {
  if (value) yaml_plain_number(out, key, format_shortest(convert(*value)));
}

void emit_device(YAML::Emitter& out, const Device& device) {
  out << YAML::BeginMap;
  yaml_word(out, "id", device.id);
  if (!device.aliases.empty()) {
    out << YAML::Key << "aliases" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const std::string& alias : device.aliases) put_yaml_string(out, alias);
    out << YAML::EndSeq;
  }
  yaml_text(out, "name", device.name);
  yaml_word(out, "kind", std::string(to_string(device.kind)));
  yaml_text(out, "vendor", device.vendor);
  yaml_number(out, "memory_gib", device.memory, gib);
  yaml_number(out, "reserved_gib", device.reserved, gib);
  yaml_number(out, "memory_bandwidth_gbs", device.memory_bandwidth_bytes_per_s, gbs);
  bool any_peak = false;
  for (const auto& peak : device.peak_flops_per_s) any_peak = any_peak || peak.has_value();
  if (any_peak) {
    out << YAML::Key << "peak_tflops" << YAML::Value << YAML::BeginMap;
    for (std::size_t i = 0; i < k_dtype_count; ++i) {
      yaml_number(out, to_string(static_cast<DType>(i)), device.peak_flops_per_s[i], tflops);
    }
    out << YAML::EndMap;
  }
  if (device.cores) out << YAML::Key << "cores" << YAML::Value << *device.cores;
  if (device.interconnect) {
    out << YAML::Key << "interconnect" << YAML::Value << YAML::BeginMap;
    yaml_text(out, "kind", device.interconnect->kind);
    yaml_plain_number(out, "bandwidth_gbs", format_shortest(gbs(device.interconnect->bandwidth_bytes_per_s)));
    out << YAML::EndMap;
  }
  yaml_number(out, "tdp_w", device.tdp_w, plain);
  yaml_number(out, "launch_price_usd", device.launch_price, usd);
  if (device.host_arch != HostArch::x86_64) yaml_text(out, "host_arch", std::string(to_string(device.host_arch)));
  if (device.compute_capability)
    yaml_text(out, "compute_capability", compute_capability_text(*device.compute_capability));
  yaml_text(out, "source", device.source);
  yaml_text(out, "as_of", device.as_of);
  out << YAML::EndMap;
}

// The price fields of one region, as the loader reads them at the top of an offering or
// in an entry of `prices:`.
void emit_price(YAML::Emitter& out, const RegionalPrice& price) {
  if (!price.region.empty()) yaml_word(out, "region", price.region);
  yaml_number(out, "price_per_hour_usd", price.on_demand, usd);
  yaml_number(out, "spot_price_per_hour_usd", price.spot, usd);
  yaml_number(out, "reserved_1y_price_per_hour_usd", price.reserved_1y, usd);
  yaml_number(out, "reserved_3y_price_per_hour_usd", price.reserved_3y, usd);
}

void emit_offering(YAML::Emitter& out, const Offering& offering) {
  out << YAML::BeginMap;
  yaml_word(out, "id", offering.id);
  yaml_text(out, "provider", offering.provider);
  yaml_word(out, "kind", std::string(to_string(offering.kind)));
  yaml_text(out, "name", offering.name);
  yaml_word(out, "device", offering.device_id);
  yaml_plain_number(out, "devices_per_unit", std::to_string(offering.devices_per_unit));
  yaml_number(out, "vcpus", offering.vcpus, whole_number);
  yaml_number(out, "host_memory_gib", offering.host_memory, gib);
  if (offering.other_regions.empty()) {
    emit_price(out, offering.price);
  } else {
    out << YAML::Key << "prices" << YAML::Value << YAML::BeginSeq;
    for (const RegionalPrice* price : all_regions(offering)) {
      out << YAML::Flow << YAML::BeginMap;
      emit_price(out, *price);
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  yaml_number(out, "max_units", offering.max_units, whole_number);
  yaml_number(out, "purchase_price_usd", offering.purchase_price, usd);
  yaml_number(out, "power_w", offering.power_w, plain);
  yaml_number(out, "network_gbps", offering.network_gbps, plain);
  if (offering.interconnect) {
    out << YAML::Key << "interconnect" << YAML::Value << YAML::BeginMap;
    yaml_text(out, "kind", offering.interconnect->kind);
    yaml_plain_number(out, "bandwidth_gbs", format_shortest(gbs(offering.interconnect->bandwidth_bytes_per_s)));
    out << YAML::EndMap;
  }
  const FreeTierLimits& limits = offering.limits;
  if (limits.session_hours || limits.weekly_hours || !limits.note.empty()) {
    out << YAML::Key << "limits" << YAML::Value << YAML::BeginMap;
    yaml_number(out, "session_hours", limits.session_hours, plain);
    yaml_number(out, "weekly_hours", limits.weekly_hours, plain);
    yaml_text(out, "note", limits.note);
    out << YAML::EndMap;
  }
  yaml_text(out, "source", offering.source);
  yaml_text(out, "as_of", offering.as_of);
  out << YAML::EndMap;
}

}  // namespace

CatalogSelection select_all(const Catalog& catalog) {
  CatalogSelection selection;
  for (const Device& device : catalog.devices()) selection.devices.push_back(&device);
  for (const Offering& offering : catalog.offerings()) selection.offerings.push_back(&offering);
  return selection;
}

std::string render_catalog_table(const CatalogSelection& selection, const TableStyle& style) {
  // Six digits: a price the importer multiplied (12 × $0.0408) reads 0.4896, not
  // 0.48960000000000004 (export and JSON keep every digit).
  const auto price_cell = [](const std::optional<Usd>& price) {
    return price ? format_general(price->value, 6) : std::string("-");
  };
  std::vector<std::vector<std::string>> device_rows;
  for (const Device* d : selection.devices) {
    device_rows.push_back({d->id, std::string(to_string(d->kind)), d->vendor,
                           d->memory ? format_gb(*d->memory) : std::string("-"),
                           optional_text(d->memory_bandwidth_bytes_per_s, gbs, "-"),
                           optional_text(d->peak(DType::bf16), tflops, "-"), d->as_of, d->name});
  }
  std::vector<std::vector<std::string>> offering_rows;
  for (const Offering* o : selection.offerings) {
    offering_rows.push_back({o->id, o->provider, std::string(to_string(o->kind)), o->device_id,
                             std::to_string(o->devices_per_unit), price_cell(o->price.on_demand),
                             price_cell(o->price.spot), price_cell(o->purchase_price), o->as_of});
  }
  std::string text = "Devices (" + std::to_string(device_rows.size()) + "):\n";
  if (!device_rows.empty()) {
    // Too wide for the terminal: the name goes first (catalog show has it), then the date,
    // the vendor and the kind; the id and the figures stay.
    text += render_table({{"id"},
                          {"kind", false, 1},
                          {"vendor", false, 2},
                          {"memory GB", true},
                          {"bandwidth GB/s", true},
                          {"bf16 TFLOPS", true},
                          {"as_of", false, 3},
                          {"name", false, 4}},
                         device_rows, style);
  }
  text += "\nOfferings (" + std::to_string(offering_rows.size()) + "):\n";
  if (!offering_rows.empty()) {
    // Too wide: the kind goes first, then the purchase and spot prices, the provider (the
    // id starts with it) and the device (long ids name it); the id, count, price and date stay
    // if they can.
    text += render_table({{"id"},
                          {"provider", false, 3},
                          {"kind", false, 6},
                          {"device", false, 2},
                          {"devices/unit", true},
                          {"USD/hour", true},
                          {"spot USD/hour", true, 4},
                          {"purchase USD", true, 5},
                          {"as_of", false, 1}},
                         offering_rows, style);
  }
  text += "\nGB = 10^9 bytes; TFLOPS are dense; prices per unit. Every field of an entry: mlsize catalog show ID.\n";
  return style.wide ? text : wrap_prose(text, style.width);
}

std::string render_catalog_json(const CatalogSelection& selection, const JsonHeader& header) {
  Json json = json_document(header);
  json["devices"] = Json::array();
  for (const Device* device : selection.devices) json["devices"].push_back(device_json(*device));
  json["offerings"] = Json::array();
  for (const Offering* offering : selection.offerings) json["offerings"].push_back(offering_json(*offering));
  return json_text_kept(std::move(json));
}

Rows catalog_rows(const CatalogSelection& selection) {
  const std::vector<CsvColumn> columns = csv_columns();
  Rows rows;
  for (const CsvColumn& column : columns) rows.columns.push_back(column.header);
  for (const Device* device : selection.devices) {
    rows.cells.push_back(
        csv_cells(columns, *device, [](const CsvColumn& column, const Device& d) { return column.device(d); }));
  }
  for (const Offering* offering : selection.offerings) {
    rows.cells.push_back(
        csv_cells(columns, *offering, [](const CsvColumn& column, const Offering& o) { return column.offering(o); }));
  }
  return rows;
}

namespace {

// `header` as # comment lines, then the document.
std::string with_header(const std::string& header, const YAML::Emitter& out) {
  std::string text;
  std::size_t start = 0;
  while (start < header.size()) {
    const std::size_t end = std::min(header.find('\n', start), header.size());
    text += "# ";
    text += yaml_comment(std::string_view(header).substr(start, end - start));
    text += '\n';
    start = end + 1;
  }
  return text + out.c_str() + "\n";
}

}  // namespace

std::string render_catalog_yaml(const CatalogSelection& selection, const std::string& header) {
  YAML::Emitter out;
  out.SetIndent(2);
  out << YAML::BeginMap;
  if (!selection.devices.empty()) {
    out << YAML::Key << "devices" << YAML::Value << YAML::BeginSeq;
    for (const Device* device : selection.devices) emit_device(out, *device);
    out << YAML::EndSeq;
  }
  if (!selection.offerings.empty()) {
    out << YAML::Key << "offerings" << YAML::Value << YAML::BeginSeq;
    for (const Offering* offering : selection.offerings) emit_offering(out, *offering);
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
  return with_header(header, out);
}

std::string render_price_import_yaml(const PriceImport& imported, const std::string& header) {
  YAML::Emitter out;
  out.SetIndent(2);
  out << YAML::BeginMap << YAML::Key << "offerings" << YAML::Value << YAML::BeginSeq;
  for (const Offering& offering : imported.offerings) emit_offering(out, offering);
  out << YAML::EndSeq << YAML::EndMap;
  return with_header(header, out);
}

std::string render_price_import_summary(const PriceImport& imported, const std::string& output_path) {
  auto count = [](std::size_t n, const std::string& noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
  };
  std::string text = "wrote " + count(imported.offerings.size(), "offering") + " (" +
                     count(imported.price_count(), "region price") + ", " + count(imported.region_count(), "region") +
                     ") to " + output_path + " from " + count(static_cast<std::size_t>(imported.rows_read), "row") +
                     "\n";
  int skipped = static_cast<int>(imported.warnings.size());
  for (const SkippedRows& entry : imported.skipped) skipped += entry.rows;
  for (const UnknownName& entry : imported.unknown) skipped += entry.rows;
  if (skipped == 0) return text;
  text += "skipped " + count(static_cast<std::size_t>(skipped), "row") + " (or set a price aside):\n";
  for (const SkippedRows& entry : imported.skipped) {
    text += "  " + std::to_string(entry.rows) + "  " + entry.reason + "\n";
  }
  if (!imported.warnings.empty()) {
    text += "  " + std::to_string(imported.warnings.size()) + "  a price that is a placeholder or impossible (below)\n";
  }
  bool any_unknown = false;
  for (const UnknownName& entry : imported.unknown) {
    any_unknown = any_unknown || !entry.ambiguous;
    text += "  " + std::to_string(entry.rows) + "  " + (entry.ambiguous ? "ambiguous" : "unknown name") + " \"" +
            entry.name + "\" (first at " + entry.first_at + ")" +
            (entry.hint.empty() ? std::string() : ": " + entry.hint) + "\n";
  }
  for (const RowWarning& warning : imported.warnings) {
    text += "warning: " + warning.at + ": " + warning.reason + "\n";
  }
  if (any_unknown) {
    text +=
        "A name the catalogue lacks needs its device (or, for Azure, its VM size) in an overlay first: "
        "docs/catalogue.md#refreshing-prices-catalog-import\n";
  }
  return text;
}

}  // namespace mlsize::cli
