// The default catalogue from the snapshot compiled in: kept apart from the YAML loader,
// which the build's snapshot tool links without a snapshot to read.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/catalog_snapshot.hpp>
#include <mlsize/support/embedded_data.hpp>

namespace mlsize {

Catalog load_default_catalog(std::string_view only_offering) {
  Catalog catalog = read_catalog_snapshot(default_catalog_snapshot(), only_offering);
  catalog.check_references();
  return catalog;
}

}  // namespace mlsize
