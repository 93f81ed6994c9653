#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/price_import.hpp>
#include <mlsize/catalog/same_price.hpp>
#include <mlsize/catalog/skypilot_names.hpp>
#include <mlsize/support/date.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/number_format.hpp>
#include <mlsize/support/text_distance.hpp>
#include <mlsize/support/utf8.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <system_error>

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
// tpu-v4-8 is 4 chips. v2 and v3 chips have two TensorCores each as well (Google's "TPU system
// architecture" page: "each v2 and v3 TPU chip has two TensorCores"), as the embedded
// gcp-tpu-v2-8 and gcp-tpu-v3-8 (4 chips each) count them.
std::optional<TpuSlice> tpu_slice(std::string_view name) {
  struct Family {
    std::string_view prefix;
    std::string_view device;
    int cores_per_chip;
  };
  constexpr std::array<Family, 6> k_families{Family{"tpu-v2-", "tpu-v2", 2},         Family{"tpu-v3-", "tpu-v3", 2},
                                             Family{"tpu-v4-", "tpu-v4", 2},         Family{"tpu-v5p-", "tpu-v5p", 2},
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
  const std::string_view unpriced = unpriced_skypilot_folder(folder);
  std::string why = folder.empty() ? std::string("the path names no folder")
                    : !unpriced.empty()
                        ? std::string(unpriced)
                        : "the file's folder \"" + std::string(folder) +
                              "\" is not one of the clouds whose prices skypilot-catalog keeps (catalogs/v7-v9)";
  throw Error(ErrorKind::usage, "no provider for " + std::string(file_name) + ": --provider is not given and " + why,
              "give --provider aws (or gcp, lambda, ...), or keep the file in a folder named for its cloud, as "
              "skypilot-catalog does (catalogs/v9/aws/vms.csv)")
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

void PriceImporter::warn(const std::string& at, const std::string& reason) {
  m_warnings.push_back({at, reason});
}

void PriceImporter::unknown(UnknownName entry, const std::vector<std::string>& candidates) {
  const auto found = std::find_if(m_unknown.begin(), m_unknown.end(),
                                  [&](const UnknownName& known) { return known.name == entry.name; });
  if (found != m_unknown.end()) {
    ++found->rows;
    return;
  }
  if (entry.hint.empty() && !candidates.empty()) entry.hint = did_you_mean(entry.name, candidates);
  m_unknown.push_back(std::move(entry));
}

namespace {

std::string usd_text(double usd) {
  return "$" + format_general(usd);
}

}  // namespace

namespace {

// A region reaches launch files (SkyPilot's `region:`) and every report: it is refused where
// it enters, from either price file, unless it is a region name (issue 46: U+2028 in a
// region read as a line break by PyYAML). `item`: an Azure page's item, else a CSV line.
void check_region(const std::string& region, const std::string& file, int line, const std::string& item) {
  if (is_region_name(region)) return;
  const std::string bad = first_unprintable(region);
  Error error(ErrorKind::input,
              item + "the region " + in_quotes(escape_unprintable(region)) + " is not a region name" +
                  (bad.empty() ? std::string() : " (it holds " + bad + ")"),
              "regions are 1 to 128 printable ASCII characters, e.g. us-east-1");
  error.at(SourceLocation{file, item.empty() ? line : 0, 0, {}});
  throw error;
}

}  // namespace

void PriceImporter::add_row(Offering offering, const PriceRow& row) {
  const std::string at = row.file + ":" + std::to_string(row.line);
  check_region(row.region, row.file, row.line, "");
  const PriceSanity& sanity = m_settings.sanity;
  const double on_demand = *row.on_demand;
  // A price of 0 or less is a placeholder: only a free tier, declared as one, costs nothing.
  if (!(on_demand > 0)) {
    warn(at, "dropped: an on-demand price of " + usd_text(on_demand) +
                 " (a placeholder: only an offering declared a free tier costs nothing)");
    return;
  }
  const double per_device = on_demand / std::max(1, offering.devices_per_unit);
  if (per_device > sanity.max_usd_per_device_hour) {
    warn(at, "dropped: " + usd_text(per_device) + " per device-hour on demand (more than " +
                 usd_text(sanity.max_usd_per_device_hour) + ": not a rental price)");
    return;
  }
  RegionalPrice price{row.region, Usd(on_demand), std::nullopt, std::nullopt, std::nullopt};
  if (row.spot) {
    if (!(*row.spot > 0)) {
      skip("a spot price of 0 or less set aside (a placeholder; the row's on-demand price is kept)");
    } else if (*row.spot > on_demand * sanity.max_spot_share) {
      skip("a spot price above on-demand set aside (a placeholder; the row's on-demand price is kept)");
    } else {
      price.spot = Usd(*row.spot);
    }
  }
  // A bound of the overlay's size, kept as rows come: past the limit, the import stops here
  // rather than after rendering an overlay no --catalog would read.
  if (m_settings.max_overlay_bytes > 0) {
    m_ids.insert(offering.id);
    m_id_regions.insert(offering.id + " " + row.region);
    const std::size_t at_least =
        m_ids.size() * k_overlay_bytes_per_offering + m_id_regions.size() * k_overlay_bytes_per_price;
    if (at_least > m_settings.max_overlay_bytes) {
      throw Error(ErrorKind::input,
                  "at " + at + " the overlay passes " + std::to_string(m_settings.max_overlay_bytes / (1024 * 1024)) +
                      " MiB, the most a catalogue file may have (" + std::to_string(m_ids.size()) +
                      " offerings so far); nothing was written",
                  "import fewer files at a time (one cloud per overlay), or leave out CPU rows (--include-cpu)");
    }
  }
  Lines lines{row.line, row.line};
  if (row.joined_line != 0) {
    lines.first = std::min(lines.first, row.joined_line);
    lines.last = std::max(lines.last, row.joined_line);
  }
  m_pending.push_back({intern(std::move(offering)), std::move(price), file_index(row.file), lines});
}

std::size_t PriceImporter::intern(Offering offering) {
  std::string key = offering.id;
  key += ' ';
  key += offering.device_id;
  key += ' ';
  key += std::to_string(offering.devices_per_unit);
  const auto [found, added] = m_offering_index.try_emplace(std::move(key), m_offerings.size());
  if (added) m_offerings.push_back(std::move(offering));
  return found->second;
}

std::size_t PriceImporter::file_index(const std::string& file) {
  const auto [found, added] = m_file_index.try_emplace(file, m_files.size());
  if (added) m_files.push_back(file);
  return found->second;
}

void PriceImporter::add_row(Offering offering, const RegionalPrice& price, const std::string& file, int line) {
  const std::string at = file + " item " + std::to_string(line);
  check_region(price.region, file, line, "item " + std::to_string(line) + ": ");
  for (const std::optional<Usd>& usd : {price.on_demand, price.spot, price.reserved_1y, price.reserved_3y}) {
    if (usd && !(usd->value > 0)) {
      warn(at, "dropped: a price of " + usd_text(usd->value) + " (a placeholder: only a free tier costs nothing)");
      return;
    }
    // The same sanity as a CSV row's: a price per device-hour no rental has is a typo or a
    // placeholder (1e300 was written into the overlay and refused there, naming the output).
    const double per_device = usd ? usd->value / std::max(1, offering.devices_per_unit) : 0;
    if (per_device > m_settings.sanity.max_usd_per_device_hour) {
      warn(at, "dropped: " + usd_text(per_device) + " per device-hour (more than " +
                   usd_text(m_settings.sanity.max_usd_per_device_hour) + ": not a rental price)");
      return;
    }
  }
  m_pending.push_back({intern(std::move(offering)), price, file_index(file), {line, line}});
}

void PriceImporter::group_row(std::map<std::string, Group, std::less<>>& groups, const PendingRow& row) const {
  const Offering& offering = m_offerings[row.offering];
  const std::string& file = m_files[row.file];
  Group& group = groups[offering.id];
  auto variant = std::find_if(group.variants.begin(), group.variants.end(), [&](const Variant& v) {
    return v.offering.device_id == offering.device_id && v.offering.devices_per_unit == offering.devices_per_unit;
  });
  if (variant == group.variants.end()) {
    group.variants.push_back({offering, {}, {}, 0});
    variant = group.variants.end() - 1;
  }
  ++variant->rows;
  auto lines =
      std::find_if(variant->lines.begin(), variant->lines.end(), [&](const auto& l) { return l.first == file; });
  if (lines == variant->lines.end()) {
    variant->lines.push_back({file, row.lines});
    lines = variant->lines.end() - 1;
  }
  lines->second.first = std::min(lines->second.first, row.lines.first);
  lines->second.last = std::max(lines->second.last, row.lines.last);
  const RegionalPrice& price = row.price;
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
  result.warnings = m_warnings;

  // A price far from the same device's others is a placeholder or a typo (GCP's 700.0 for a
  // one-chip TPU slice that rents for 2.70): the median per device-hour over every file's rows
  // of that device, CPUs aside (their price follows the vCPUs, not a count of devices).
  std::map<std::string, std::vector<double>, std::less<>> per_device_prices;
  auto per_device = [&](const PendingRow& row) {
    return row.price.on_demand ? row.price.on_demand->value / std::max(1, m_offerings[row.offering].devices_per_unit)
                               : 0.0;
  };
  for (const PendingRow& row : m_pending) {
    if (row.price.on_demand) per_device_prices[m_offerings[row.offering].device_id].push_back(per_device(row));
  }
  std::map<std::string, double, std::less<>> medians;
  for (auto& [device, prices] : per_device_prices) {
    std::sort(prices.begin(), prices.end());
    const std::size_t n = prices.size();
    medians[device] = n % 2 == 1 ? prices[n / 2] : (prices[n / 2 - 1] + prices[n / 2]) / 2;
  }
  const double factor = m_settings.sanity.max_factor_from_median;
  std::map<std::string, Group, std::less<>> groups;
  for (const PendingRow& row : m_pending) {
    const std::string& device_id = m_offerings[row.offering].device_id;
    const Device* device = m_catalog.find_device(device_id);
    const bool priced_per_device = device != nullptr && device->kind != DeviceKind::cpu;
    if (priced_per_device && row.price.on_demand && per_device_prices[device_id].size() >= 3) {
      const double median = medians[device_id];
      const double price = per_device(row);
      if (price > median * factor || price < median / factor) {
        result.warnings.push_back({m_files[row.file] + ":" + std::to_string(row.lines.first),
                                   "dropped: " + usd_text(price) + " per " + device_id + "-hour on demand, more than " +
                                       format_general(factor) + "x from the median of the import's " +
                                       std::to_string(per_device_prices[device_id].size()) + " rows of that device (" +
                                       usd_text(median) + ")"});
        continue;
      }
    }
    group_row(groups, row);
  }

  for (const auto& [id, group] : groups) {
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
    // A reserved rate the catalogue's entry has for a region stays where the file prices that
    // region on demand as the entry does (the same list: GCP's committed-use rates of the a2
    // VMs); where the on-demand price moved, the rate belonged to another list and is dropped.
    if (known != nullptr && known->device_id == imported.device_id) {
      std::vector<RegionalPrice> known_prices{known->price};
      known_prices.insert(known_prices.end(), known->other_regions.begin(), known->other_regions.end());
      for (RegionalPrice& price : prices) {
        for (const RegionalPrice& before : known_prices) {
          if (before.region != price.region || !before.on_demand) continue;
          if (!same_price(before.on_demand->value, price.on_demand->value)) continue;
          if (!price.reserved_1y) price.reserved_1y = before.reserved_1y;
          if (!price.reserved_3y) price.reserved_3y = before.reserved_3y;
        }
      }
    }
    // As the loader orders a `prices:` list: the cheapest on demand first, ties in the list's
    // order, which is by name but for the catalogue entry's own region, first among its ties
    // (Lambda prices its 17 regions alike: us-east-1 stays, not asia-northeast-1 by the alphabet).
    if (known != nullptr) {
      const auto own = std::find_if(prices.begin(), prices.end(),
                                    [&](const RegionalPrice& p) { return p.region == known->price.region; });
      if (own != prices.end()) std::rotate(prices.begin(), own, own + 1);
    }
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
    if (!m_settings.origin.empty()) source = m_settings.origin + " " + source;
    imported.source = source + std::string(k_imported_by);
    imported.as_of = m_settings.as_of;
    result.offerings.push_back(std::move(imported));
  }
  return result;
}

}  // namespace mlsize
