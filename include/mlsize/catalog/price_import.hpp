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
#include <set>
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

// An accelerator name or Azure SKU the catalogue has no entry for, or one that could be
// several devices (an A100 of 40 GB: SXM or PCIe) with nothing in the row to tell which: its
// rows are skipped, never guessed.
struct UnknownName {
  std::string name;  // as the file spells it, with the memory the row states ("A100 80 GB")
  int rows = 0;
  std::string first_at;  // "file:line" or "file item N"
  std::string hint;      // did you mean ... (devices of the same memory only), why it is ambiguous, or ""
  bool ambiguous = false;
};

// A row dropped for its price (a placeholder, an impossible value, far from the device's
// other prices), or a price of a row set aside while the row is kept: one per row.
struct RowWarning {
  std::string at;  // "file:line"
  std::string reason;
};

// The bounds a price of a row must meet (docs/catalogue.md#price-sanity).
struct PriceSanity {
  // A spot price above on-demand × this is not a spot price (a placeholder such as GCP's 700.0).
  double max_spot_share = 1.0;
  // A row's on-demand price per device-hour more than this factor above or below the median of
  // the same device's rows in the import is a placeholder or a typo.
  double max_factor_from_median = 10.0;
  // No accelerator rents for more per device-hour (an H100 is $2-12; a B200 about $5-14).
  double max_usd_per_device_hour = 1000.0;
  // No instance holds more accelerators (GCP's a2-megagpu-16g and AWS's trn1.32xlarge: 16).
  int max_accelerators_per_instance = 64;
};

struct PriceImport {
  // By id. Each has every region's prices, the cheapest on demand as `price` and the
  // others in `other_regions`, as the loader reads a `prices:` list; fields a price file
  // does not state (network_gbps, max_units) come from the catalogue's entry of the same id.
  std::vector<Offering> offerings;
  int rows_read = 0;
  std::vector<SkippedRows> skipped;  // in the order first met
  std::vector<UnknownName> unknown;  // in the order first met
  std::vector<RowWarning> warnings;  // in file order
  std::size_t region_count() const;  // distinct regions over all offerings
  std::size_t price_count() const;   // region prices over all offerings
};

struct PriceImportSettings {
  std::string provider;    // --provider; empty: each SkyPilot file's folder (.../aws/vms.csv)
  std::string as_of;       // --as-of, YYYY-MM-DD: required, as neither format dates its prices
  std::string cpu_device;  // --include-cpu: the device of rows without an accelerator; empty: skip them
  std::string origin;      // --origin: where the files come from (repository@commit), written in each source
  PriceSanity sanity;
  // The overlay's size limit (a catalogue file's): rows that would take it past this stop the
  // import at the row, before the work of rendering it (0: no limit).
  std::size_t max_overlay_bytes = 0;
};

// The least an overlay takes: each offering at least its id, provider, kind, name, device,
// count, source and date, and each region price its line.
inline constexpr std::size_t k_overlay_bytes_per_offering = 200;
inline constexpr std::size_t k_overlay_bytes_per_price = 60;

// One row of a SkyPilot price file as read, before it is checked and placed: internal to the
// importer and the GCP join (core/catalog/gcp_gpu_vms.hpp).
struct PriceRow {
  std::string file;
  int line = 0;
  int joined_line = 0;  // GCP: the accelerator row added to this host row, or 0
  std::string instance;
  std::string accelerator;
  std::string region;
  std::string zone;
  std::string gpu_info;
  std::optional<double> on_demand;
  std::optional<double> spot;
  std::optional<double> count;
  std::optional<double> vcpus;
  std::optional<double> memory_gib;
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
  // A row placed on an offering, kept until every file is read: the sanity checks compare its
  // price with the same device's other rows. Compact (issue 46: a full Offering per row made a
  // 58 MB file peak at 835 MB): the offering and the file are indexes into the importer's own
  // lists, the lines the first and last the row was read from.
  struct PendingRow {
    std::size_t offering = 0;  // into m_offerings
    RegionalPrice price;
    std::size_t file = 0;  // into m_files
    Lines lines;
  };
  struct DeviceChoice {
    std::string device_id;  // empty: `problem` says what the row names, `hint` why no device
    std::string problem;
    std::string hint;
    bool ambiguous = false;
  };

  DeviceChoice choose_device(const std::string& provider, const std::string& accelerator,
                             std::optional<double> memory_gib, std::string_view form,
                             const std::string& offering_id) const;
  void add_raw_row(const std::string& provider, const PriceRow& row);
  Offering sibling_fields(const std::string& provider, const std::string& device_id, int devices) const;
  // One row's prices for one region, checked (placeholders, impossible values) and kept.
  void add_row(Offering offering, const PriceRow& row);
  // For the Azure pages: a row already checked, at `file` item `line`.
  void add_row(Offering offering, const RegionalPrice& price, const std::string& file, int line);
  void group_row(std::map<std::string, Group, std::less<>>& groups, const PendingRow& row) const;
  // The offering's index in m_offerings, added the first time its id, device and count come.
  std::size_t intern(Offering offering);
  std::size_t file_index(const std::string& file);
  void skip(const std::string& reason, int rows = 1);
  void skip(std::vector<SkippedRows>& skipped, const std::string& reason, int rows) const;
  void warn(const std::string& at, const std::string& reason);
  void unknown(UnknownName entry, const std::vector<std::string>& candidates);
  std::string provider_for(std::string_view file_name) const;

  const Catalog& m_catalog;
  PriceImportSettings m_settings;
  std::vector<PendingRow> m_pending;
  std::vector<Offering> m_offerings;  // the distinct offerings the rows name (PendingRow::offering)
  std::map<std::string, std::size_t, std::less<>> m_offering_index;  // "id device count" → index
  std::vector<std::string> m_files;                                  // PendingRow::file
  std::map<std::string, std::size_t, std::less<>> m_file_index;
  std::set<std::string, std::less<>> m_ids;                      // offering ids the rows make, for the size bound
  std::set<std::string, std::less<>> m_id_regions;               // "id region" pairs, likewise
  std::map<std::string, std::string, std::less<>> m_unit_words;  // file → "lines" or "items"
  int m_rows = 0;
  std::vector<SkippedRows> m_skipped;
  std::vector<UnknownName> m_unknown;
  std::vector<RowWarning> m_warnings;
};

// The TPU slice a SkyPilot name such as tpu-v5p-8 or tpu-v5litepod-16 is: its catalogue
// device and chip count, or nullopt when the name is not a slice mlsize knows.
struct TpuSlice {
  std::string device_id;
  int chips = 0;
};
std::optional<TpuSlice> tpu_slice(std::string_view name);

}  // namespace mlsize
