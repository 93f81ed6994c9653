#pragma once
// `mlsize catalog import`: public price files (SkyPilot's vms.csv, Azure's Retail Prices API
// pages) into catalogue offerings with a price per region, for an overlay. Text in, offerings
// out: the CLI reads the files and writes the YAML (docs/catalogue.md#refreshing-prices-catalog-import).

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/support/names.hpp>

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mlsize {

// Larger price files are refused before parsing (SkyPilot's aws/vms.csv is about 2.5 MB).
inline constexpr std::size_t k_max_price_file_bytes = 64 * 1024 * 1024;

enum class PriceFormat { skypilot, azure_retail };
constexpr auto enum_names(PriceFormat) {
  using enum PriceFormat;
  return std::to_array<EnumName<PriceFormat>>({{skypilot, "skypilot"}, {azure_retail, "azure-retail"}});
}

// Rows left out, by reason.
struct SkippedRows {
  std::string reason;
  int rows = 0;
};

// An accelerator name or Azure SKU the catalogue has no entry for: its rows are skipped.
struct UnknownName {
  std::string name;
  int rows = 0;
  std::string first_at;  // "file:line" or "file item N"
  std::string hint;      // did you mean ..., or ""
};

struct PriceImport {
  // By id. Each has every region's prices, the cheapest on demand as `price` and the
  // others in `other_regions`, as the loader reads a `prices:` list; fields a price file
  // does not state (network_gbps, max_units) come from the catalogue's entry of the same id.
  std::vector<Offering> offerings;
  int rows_read = 0;
  std::vector<SkippedRows> skipped;  // in the order first met
  std::vector<UnknownName> unknown;  // in the order first met
  std::size_t region_count() const;  // distinct regions over all offerings
  std::size_t price_count() const;   // region prices over all offerings
};

struct PriceImportSettings {
  std::string provider;    // --provider; empty: each SkyPilot file's folder (.../aws/vms.csv)
  std::string as_of;       // --as-of, YYYY-MM-DD: required, as neither format dates its prices
  std::string cpu_device;  // --include-cpu: the device of rows without an accelerator; empty: skip them
};

// Collects the rows of one or more files, then makes one offering per instance type.
class PriceImporter {
 public:
  // Throws Error (usage) for a missing or bad --as-of, or an --include-cpu that names no device.
  PriceImporter(const Catalog& catalog, PriceImportSettings settings);

  // `file_name` names the text in errors and in each offering's source. Throws Error (input)
  // with file:line:column for text that is not the format; rows the catalogue cannot place
  // are counted in the result instead.
  void add(PriceFormat format, std::string_view text, std::string_view file_name);
  void add_skypilot_csv(std::string_view text, std::string_view file_name);
  void add_azure_retail_json(std::string_view text, std::string_view file_name);

  PriceImport result() const;

 private:
  struct Lines {
    int first = 0;
    int last = 0;
  };
  struct Region {
    RegionalPrice price;
    int rows = 0;
  };
  struct Variant {  // the rows of one instance type that agree on its device and count
    Offering offering;
    std::map<std::string, Region, std::less<>> regions;
    std::vector<std::pair<std::string, Lines>> lines;  // by file, in the order given
    int rows = 0;
  };
  struct Group {
    std::vector<Variant> variants;
  };

  // One row's prices (RegionalPrice) for one region, combined with the others of its zones.
  void add_row(Offering offering, const RegionalPrice& price, const std::string& file, int line);
  void skip(const std::string& reason, int rows = 1);
  void skip(std::vector<SkippedRows>& skipped, const std::string& reason, int rows) const;
  void unknown(const std::string& name, const std::string& at, const std::vector<std::string>& candidates);
  std::string provider_for(std::string_view file_name) const;

  const Catalog& m_catalog;
  PriceImportSettings m_settings;
  std::map<std::string, Group, std::less<>> m_groups;            // by offering id
  std::map<std::string, std::string, std::less<>> m_unit_words;  // file → "lines" or "items"
  int m_rows = 0;
  std::vector<SkippedRows> m_skipped;
  std::vector<UnknownName> m_unknown;
};

// The TPU slice a SkyPilot name such as tpu-v5p-8 or tpu-v5litepod-16 is: its catalogue
// device and chip count, or nullopt when the name is not a slice mlsize knows.
struct TpuSlice {
  std::string device_id;
  int chips = 0;
};
std::optional<TpuSlice> tpu_slice(std::string_view name);

}  // namespace mlsize
