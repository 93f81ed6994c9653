#include "cli/options/providers.hpp"

#include "cli/options/workload_options.hpp"

#include <mlsize/support/text_distance.hpp>

#include <algorithm>
#include <set>

namespace mlsize::cli {

std::vector<std::string> catalog_providers(const Catalog& catalog) {
  std::set<std::string> providers;
  for (const Offering& offering : catalog.offerings()) providers.insert(offering.provider);
  return {providers.begin(), providers.end()};
}

void check_provider(const std::string& flag, const std::string& provider, const Catalog& catalog) {
  const std::vector<std::string> providers = catalog_providers(catalog);
  if (std::binary_search(providers.begin(), providers.end(), provider)) return;
  std::string hint = did_you_mean(provider, providers);
  if (hint.empty()) {
    for (const std::string& name : providers) hint += (hint.empty() ? "providers: " : ", ") + name;
  }
  flag_error(flag, "unknown provider \"" + provider + "\"", hint);
}

bool provider_has_cloud_prices(const std::string& provider, const Catalog& catalog) {
  return std::any_of(catalog.offerings().begin(), catalog.offerings().end(), [&](const Offering& offering) {
    return offering.provider == provider && offering.kind != OfferingKind::on_prem;
  });
}

Catalog filter_providers(Catalog catalog, const std::vector<std::string>& only, bool no_marketplace,
                         const std::vector<std::string>& excluded) {
  for (const std::string& provider : only) check_provider("--provider", provider, catalog);
  for (const std::string& provider : excluded) {
    check_provider("--exclude-provider", provider, catalog);
    if (std::find(only.begin(), only.end(), provider) != only.end()) {
      flag_error("--exclude-provider", "provider \"" + provider + "\" is also given to --provider",
                 "name a provider in only one of --provider and --exclude-provider");
    }
  }
  if (only.empty() && excluded.empty() && !no_marketplace) return catalog;  // the common case: no copy
  Catalog filtered;
  for (const Device& device : catalog.devices()) filtered.put(device);
  for (const Provider& provider : catalog.providers()) filtered.put(provider);
  for (const Offering& offering : catalog.offerings()) {
    const bool wanted = only.empty() || std::find(only.begin(), only.end(), offering.provider) != only.end();
    const Provider* provider = catalog.find_provider(offering.provider);
    const bool marketplace = provider != nullptr && !provider->marketplace.empty();
    const bool dropped = std::find(excluded.begin(), excluded.end(), offering.provider) != excluded.end() ||
                         (no_marketplace && marketplace);
    if (wanted && !dropped) filtered.put(offering);
  }
  return filtered;
}

}  // namespace mlsize::cli
