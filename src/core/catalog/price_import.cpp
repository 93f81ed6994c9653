#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/price_import.hpp>
#include <mlsize/catalog/skypilot_names.hpp>
#include <mlsize/support/date.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/text_distance.hpp>

#include <algorithm>
#include <charconv>
#include <set>

namespace mlsize {
namespace {

// What each offering's source says after the rows it came from.
constexpr std::string_view k_imported_by = ", imported by mlsize catalog import";

// The file as a source names it: its name and the folder it is in (aws/vms.csv), which tells
// skypilot-catalog's files apart without the rest of the path.
std::string source_name(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string_view::npos || slash == 0) return std::string(path);
  const std::size_t folder = path.find_last_of('/', slash - 1);
  return std::string(folder == std::string_view::npos ? path : path.substr(folder + 1));
}

// A count in a slice name: digits only, 1 to 1,000,000.
std::optional<int> slice_count(std::string_view digits) {
  int value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  if (value < 1 || value > 1'000'000) return std::nullopt;
  return value;
}

}  // namespace

// Cloud TPU names count TensorCores for v4 and v5p and chips for v5e and v6e, as the
// embedded gcp-tpu-* offerings in data/catalog/offerings.yaml note: v5p-N counts TensorCores,
// 2 per chip (Google's v5p page: "v5p-32 = 32 TensorCores (16 chips)"); v5litepod-N and v6e-N
// count chips of one TensorCore each. v4 has two TensorCores per chip too ("Each TPU v4 chip
// contains two TensorCores", https://cloud.google.com/tpu/docs/v4) and is named as v5p is, so
// tpu-v4-8 is 4 chips. v2 and v3 are not mapped: their rows are reported as unknown names.
std::optional<TpuSlice> tpu_slice(std::string_view name) {
  struct Family {
    std::string_view prefix;
    std::string_view device;
    int cores_per_chip;
  };
  constexpr std::array<Family, 4> k_families{Family{"tpu-v4-", "tpu-v4", 2}, Family{"tpu-v5p-", "tpu-v5p", 2},
                                             Family{"tpu-v5litepod-", "tpu-v5e", 1}, Family{"tpu-v6e-", "tpu-v6e", 1}};
  for (const Family& family : k_families) {
    if (!name.starts_with(family.prefix)) continue;
    const std::optional<int> count = slice_count(name.substr(family.prefix.size()));
    if (!count || *count % family.cores_per_chip != 0) return std::nullopt;
    return TpuSlice{std::string(family.device), *count / family.cores_per_chip};
  }
  return std::nullopt;
}

std::size_t PriceImport::region_count() const {
  std::set<std::string, std::less<>> regions;
  for (const Offering& offering : offerings) {
    regions.insert(offering.price.region);
    for (const RegionalPrice& price : offering.other_regions) regions.insert(price.region);
  }
  return regions.size();
}

std::size_t PriceImport::price_count() const {
  std::size_t count = 0;
  for (const Offering& offering : offerings) count += 1 + offering.other_regions.size();
  return count;
}

PriceImporter::PriceImporter(const Catalog& catalog, PriceImportSettings settings)
    : m_catalog(catalog), m_settings(std::move(settings)) {
  if (m_settings.as_of.empty()) {
    throw Error(ErrorKind::usage,
                "the date of the prices is required: neither SkyPilot's vms.csv nor an Azure Retail Prices page states "
                "the date "
                "of its prices (Azure's effectiveStartDate is when a price began, not when it was read)",
                "give the day the file was downloaded, e.g. --as-of 2026-12-01")
        .at_flag("--as-of");
  }
  if (!is_iso_date(m_settings.as_of)) {
    throw Error(ErrorKind::usage, "\"" + m_settings.as_of + "\" is not a date", "a date written YYYY-MM-DD")
        .at_flag("--as-of");
  }
  if (!m_settings.cpu_device.empty()) {
    const Device* device = m_catalog.find_device(m_settings.cpu_device);
    if (device == nullptr) {
      std::string hint = did_you_mean(m_settings.cpu_device, m_catalog.device_names());
      if (hint.empty()) hint = "list the CPU devices with: mlsize catalog list --kind cpu";
      throw Error(ErrorKind::usage, "no device has the id \"" + m_settings.cpu_device + "\"", hint)
          .at_flag("--include-cpu");
    }
    if (device->kind != DeviceKind::cpu) {
      throw Error(ErrorKind::usage,
                  "\"" + m_settings.cpu_device + "\" is a " + std::string(to_string(device->kind)) + ", not a CPU",
                  "name a cpu device; list them with: mlsize catalog list --kind cpu")
          .at_flag("--include-cpu");
    }
    m_settings.cpu_device = device->id;
  }
}

void PriceImporter::add(PriceFormat format, std::string_view text, std::string_view file_name) {
  switch (format) {
    case PriceFormat::skypilot: add_skypilot_csv(text, file_name); return;
    case PriceFormat::azure_retail: add_azure_retail_json(text, file_name); return;
  }
}

std::string PriceImporter::provider_for(std::string_view file_name) const {
  if (!m_settings.provider.empty()) return m_settings.provider;
  // skypilot-catalog keeps each cloud's file in a folder named for it: catalogs/v7/aws/vms.csv.
  const std::string_view path = file_name;
  const std::size_t slash = path.find_last_of('/');
  std::string_view folder = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
  folder = folder.substr(folder.find_last_of('/') == std::string_view::npos ? 0 : folder.find_last_of('/') + 1);
  const std::string_view provider = provider_of_skypilot_cloud(folder);
  if (!provider.empty()) return std::string(provider);
  throw Error(ErrorKind::usage,
              "no provider for " + std::string(file_name) + ": --provider is not given and " +
                  (folder.empty() ? std::string("the path names no folder")
                                  : "the file's folder \"" + std::string(folder) + "\" is not a cloud SkyPilot names"),
              "give --provider aws (or gcp, lambda, ...), or keep the file in a folder named for its cloud, as "
              "skypilot-catalog does (catalogs/v7/aws/vms.csv)")
      .at_flag("--provider");
}

void PriceImporter::skip(std::vector<SkippedRows>& skipped, const std::string& reason, int rows) const {
  if (rows <= 0) return;
  const auto found =
      std::find_if(skipped.begin(), skipped.end(), [&](const SkippedRows& entry) { return entry.reason == reason; });
  if (found != skipped.end()) {
    found->rows += rows;
  } else {
    skipped.push_back({reason, rows});
  }
}

void PriceImporter::skip(const std::string& reason, int rows) {
  skip(m_skipped, reason, rows);
}

void PriceImporter::unknown(const std::string& name, const std::string& at,
                            const std::vector<std::string>& candidates) {
  const auto found =
      std::find_if(m_unknown.begin(), m_unknown.end(), [&](const UnknownName& entry) { return entry.name == name; });
  if (found != m_unknown.end()) {
    ++found->rows;
    return;
  }
  m_unknown.push_back({name, 1, at, did_you_mean(name, candidates)});
}

void PriceImporter::add_row(Offering offering, const RegionalPrice& price, const std::string& file, int line) {
  Group& group = m_groups[offering.id];
  auto variant = std::find_if(group.variants.begin(), group.variants.end(), [&](const Variant& v) {
    return v.offering.device_id == offering.device_id && v.offering.devices_per_unit == offering.devices_per_unit;
  });
  if (variant == group.variants.end()) {
    group.variants.push_back({std::move(offering), {}, {}, 0});
    variant = group.variants.end() - 1;
  }
  ++variant->rows;
  auto lines =
      std::find_if(variant->lines.begin(), variant->lines.end(), [&](const auto& l) { return l.first == file; });
  if (lines == variant->lines.end()) {
    variant->lines.push_back({file, {line, line}});
  } else {
    lines->second.first = std::min(lines->second.first, line);
    lines->second.last = std::max(lines->second.last, line);
  }
  Region& region = variant->regions[price.region];
  region.price.region = price.region;
  ++region.rows;
  // Zones of a region: its on-demand price (the lowest, should zones differ) and the lowest
  // spot price, which is what SkyPilot charges when no zone is pinned (shared/reference/cloud-instances.md).
  auto lowest = [](std::optional<Usd>& into, const std::optional<Usd>& value) {
    if (value && (!into || value->value < into->value)) into = value;
  };
  lowest(region.price.on_demand, price.on_demand);
  lowest(region.price.spot, price.spot);
  lowest(region.price.reserved_1y, price.reserved_1y);
  lowest(region.price.reserved_3y, price.reserved_3y);
}

PriceImport PriceImporter::result() const {
  PriceImport result;
  result.rows_read = m_rows;
  result.skipped = m_skipped;
  result.unknown = m_unknown;
  for (const auto& [id, group] : m_groups) {
    // Rows of one instance type naming different accelerators (AWS lists p4de.24xlarge as A100
    // and as A100-80GB): keep those that agree with the catalogue's entry, else the most rows.
    const Offering* known = m_catalog.find_offering(id);
    auto kept = group.variants.begin();
    for (auto v = group.variants.begin(); v != group.variants.end(); ++v) {
      const bool matches = known != nullptr && known->device_id == v->offering.device_id &&
                           known->devices_per_unit == v->offering.devices_per_unit;
      const bool kept_matches = known != nullptr && known->device_id == kept->offering.device_id &&
                                known->devices_per_unit == kept->offering.devices_per_unit;
      if ((matches && !kept_matches) || (matches == kept_matches && v->rows > kept->rows)) kept = v;
    }
    for (auto v = group.variants.begin(); v != group.variants.end(); ++v) {
      if (v != kept) {
        skip(result.skipped,
             "another accelerator for an instance type (the rows matching the catalogue's entry are kept)", v->rows);
      }
    }
    Offering imported = kept->offering;
    std::vector<RegionalPrice> prices;
    for (const auto& [name, region] : kept->regions) {
      if (region.price.on_demand) {
        prices.push_back(region.price);
      } else {
        skip(result.skipped, "a region with spot or reserved prices but no on-demand price", region.rows);
      }
    }
    if (prices.empty()) continue;
    // As the loader orders a `prices:` list: the cheapest on demand first, ties by name.
    std::stable_sort(prices.begin(), prices.end(), [](const RegionalPrice& a, const RegionalPrice& b) {
      return a.on_demand->value < b.on_demand->value;
    });
    imported.price = prices.front();
    imported.other_regions.assign(prices.begin() + 1, prices.end());
    std::string source;
    for (const auto& [file, lines] : kept->lines) {
      if (!source.empty()) source += "; ";
      const auto word = m_unit_words.find(file);
      source += source_name(file) + " " + (word == m_unit_words.end() ? std::string("lines") : word->second) + " " +
                std::to_string(lines.first);
      if (lines.last != lines.first) source += "-" + std::to_string(lines.last);
    }
    imported.source = source + std::string(k_imported_by);
    imported.as_of = m_settings.as_of;
    result.offerings.push_back(std::move(imported));
  }
  return result;
}

}  // namespace mlsize
