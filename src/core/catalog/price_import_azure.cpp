// `catalog import --from azure-retail`: pages of the Azure Retail Prices API
// (https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices):
// {"Items": [{"armSkuName", "armRegionName", "retailPrice", "unitOfMeasure", "type",
// "reservationTerm", "skuName", "meterName", "productName", ...}], "NextPageLink": ...}.
// The items name a VM size but not its GPUs, so each is placed on the catalogue's offering of
// that name, whose device, count, vCPUs and memory it keeps.

#include <mlsize/catalog/price_import.hpp>
#include <mlsize/support/error.hpp>

#include "core/support/json_keys.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace mlsize {
namespace {

using Json = nlohmann::json;

std::string_view text(const Json& item, const char* key) {
  const auto found = item.find(key);
  if (found == item.end() || !found->is_string()) return {};
  return found->get_ref<const std::string&>();
}

bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

// 1-based line and column of byte `offset` of `text`.
SourceLocation location_of(std::string_view text, std::size_t offset, std::string_view file) {
  offset = std::min(offset, text.size());
  const std::size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  const std::size_t start = line_start == std::string_view::npos || offset == 0 ? 0 : line_start + 1;
  const int line =
      1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(start), '\n'));
  std::string_view line_text = text.substr(start);
  line_text = line_text.substr(0, line_text.find('\n'));
  return {std::string(file), line, static_cast<int>(offset - start) + 1, std::string(line_text)};
}

}  // namespace

void PriceImporter::add_azure_retail_json(std::string_view json_text, std::string_view file_name) {
  const std::string file(file_name);
  m_unit_words[file] = "items";
  Json page;
  try {
    page = Json::parse(json_text);
  } catch (const Json::parse_error& error) {
    // nlohmann's byte counts from 1 and points past the offending character.
    const std::size_t at = error.byte > 0 ? error.byte - 1 : 0;
    const std::string_view word = non_json_number_at(json_text, at);
    throw Error(ErrorKind::input, word.empty() ? "not valid JSON" : std::string(word) + " is not a number JSON allows",
                "a page of https://prices.azure.com/api/retail/prices as the API returns it")
        .at(location_of(json_text, at, file_name));
  } catch (const Json::exception& error) {
    // A number out of double's range (1e400) is nlohmann's out_of_range 406, which names the
    // literal but not its place: found again in the text, so the error points at it.
    const std::string what = error.what();
    const std::size_t open = what.find('\'');
    const std::size_t close = open == std::string::npos ? open : what.find('\'', open + 1);
    const std::string literal = close == std::string::npos ? std::string() : what.substr(open + 1, close - open - 1);
    const std::size_t at = literal.empty() ? std::string_view::npos : json_text.find(literal);
    throw Error(ErrorKind::input, literal.empty() ? "not valid JSON" : "a number too large for a price: " + literal,
                "a page of https://prices.azure.com/api/retail/prices as the API returns it")
        .at(location_of(json_text, at == std::string_view::npos ? 0 : at, file_name));
  }
  if (const std::optional<RepeatedKey> repeated = find_repeated_key(json_text)) {
    const int first_line = location_of(json_text, repeated->first, file_name).line;
    throw Error(ErrorKind::input,
                "duplicate key \"" + repeated->key + "\" (first at line " + std::to_string(first_line) + ")",
                "the API writes each key once; keep the one that is right")
        .at(location_of(json_text, repeated->second, file_name));
  }
  // By reference, not through find()'s iterator: GCC 12 under -fsanitize=thread took the
  // iterator's pointer for a possible null (-Wnull-dereference).
  if (!page.is_object() || !page.contains("Items") || !page.at("Items").is_array()) {
    throw Error(ErrorKind::input, "not an Azure Retail Prices page: no \"Items\" list",
                "a page of https://prices.azure.com/api/retail/prices as the API returns it: {\"Items\": [...], "
                "\"NextPageLink\": ...}")
        .at(location_of(json_text, 0, file_name));
  }
  const std::string provider = m_settings.provider.empty() ? std::string("azure") : m_settings.provider;
  std::vector<std::string> sizes;
  for (const Offering& offering : m_catalog.offerings()) {
    if (offering.provider == provider) sizes.push_back(offering.name);
  }

  int index = 0;
  for (const Json& item : page.at("Items")) {
    ++index;
    ++m_rows;
    const std::string at = file + " item " + std::to_string(index);
    auto fail = [&](const std::string& message) {
      throw Error(ErrorKind::input, at + ": " + message,
                  "items as the Retail Prices API writes them, with armSkuName, armRegionName, retailPrice, "
                  "unitOfMeasure and type")
          .at(SourceLocation{file, 0, 0, {}});
    };
    if (!item.is_object()) fail("is not an object");
    const std::string_view sku = text(item, "armSkuName");
    const auto price_field = item.find("retailPrice");
    if (price_field == item.end() || !price_field->is_number()) fail("lacks a number \"retailPrice\"");
    const double price = price_field->get<double>();
    if (!(price >= 0)) fail("has a negative \"retailPrice\"");
    const std::string_view type = text(item, "type");
    const std::string_view meter = text(item, "meterName");
    const std::string_view sku_name = text(item, "skuName");
    const std::string_view currency = text(item, "currencyCode");
    const std::string_view service = text(item, "serviceName");

    if (!currency.empty() && currency != "USD") {
      skip("not in USD (currencyCode)");
      continue;
    }
    if (!service.empty() && service != "Virtual Machines") {
      skip("not a virtual machine (serviceName)");
      continue;
    }
    if (text(item, "unitOfMeasure") != "1 Hour") {
      skip("not priced per hour (unitOfMeasure)");
      continue;
    }
    if (text(item, "productName").ends_with("Windows")) {
      skip("a Windows price (productName ... Windows)");
      continue;
    }
    if (contains(meter, "Low Priority") || contains(sku_name, "Low Priority")) {
      skip("a Low Priority price");
      continue;
    }
    RegionalPrice row{std::string(text(item, "armRegionName")), {}, {}, {}, {}};
    if (type == "Consumption") {
      const bool spot = contains(meter, "Spot") || contains(sku_name, "Spot");
      (spot ? row.spot : row.on_demand) = Usd(price);
    } else if (type == "Reservation") {
      const std::string_view term = text(item, "reservationTerm");
      if (term == "1 Year") {
        // A Reservation item's retailPrice is the price of the whole term, not of an hour
        // (the API's own examples: Standard_D8_v4 in westeurope, "1 Year" 2377.0 and "3 Years"
        // 4594.0 beside a Consumption price of 0.46 per hour, unitOfMeasure "1 Hour" on all
        // three; tests/data/azure-retail/README.md).
        row.reserved_1y = Usd(price / k_hours_per_year);
      } else if (term == "3 Years") {
        row.reserved_3y = Usd(price / (3 * k_hours_per_year));
      } else {
        skip("a reservation term other than 1 Year or 3 Years");
        continue;
      }
    } else {
      skip("a price type other than Consumption or Reservation (e.g. DevTestConsumption)");
      continue;
    }
    if (sku.empty()) {
      skip("no VM size (armSkuName)");
      continue;
    }
    if (row.region.empty()) {
      skip("no region (armRegionName)");
      continue;
    }
    const auto known = std::find_if(m_catalog.offerings().begin(), m_catalog.offerings().end(),
                                    [&](const Offering& o) { return o.provider == provider && o.name == sku; });
    if (known == m_catalog.offerings().end()) {
      unknown({std::string(sku), 1, at, "", false}, sizes);
      continue;
    }
    Offering offering = *known;
    offering.price = {};  // the file's, by region (add_row)
    offering.other_regions.clear();
    add_row(std::move(offering), row, file, index);
  }
}

}  // namespace mlsize
