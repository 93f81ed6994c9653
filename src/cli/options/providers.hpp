#pragma once
// Providers named on the command line: checking them against the catalogue, filtering by them.

#include <mlsize/catalog/catalog.hpp>

#include <string>
#include <vector>

namespace mlsize::cli {

// Every provider of the catalogue's offerings, sorted, each once.
std::vector<std::string> catalog_providers(const Catalog& catalog);

// Throws a usage Error naming `flag`, with the nearest provider, unless an offering has it.
void check_provider(const std::string& flag, const std::string& provider, const Catalog& catalog);

// Whether the provider has an offering priced by the hour (cloud or free tier).
bool provider_has_cloud_prices(const std::string& provider, const Catalog& catalog);

// Every device, and the offerings whose provider is in `only` (when not empty) and not in
// `excluded`; `catalog` itself when neither names one (no copy at start-up). Each name must
// be a provider of the catalogue (checked, naming the flag).
Catalog filter_providers(Catalog catalog, const std::vector<std::string>& only, bool no_marketplace,
                         const std::vector<std::string>& excluded);

}  // namespace mlsize::cli
