#pragma once
// The entries of a catalogue as snapshot bytes: the layout of the compiled-in catalogue and
// of compiled catalogues (compiled_catalog.hpp).

#include <mlsize/catalog/catalog.hpp>

#include "core/support/snapshot_bytes.hpp"

#include <cstdint>
#include <functional>

namespace mlsize {

// Bumped whenever the layout changes: a compiled-in snapshot of another layout is a stale
// build; a compiled catalogue of another is refused as stale, to be compiled again.
inline constexpr std::uint32_t k_catalog_layout_version = 11;

// Every provider, device and offering of `catalog`, in order.
void write_catalog_entries(snapshot::Writer& w, const Catalog& catalog);
// Checks of each entry as it is read, before it is put (a compiled catalogue's: compiled_catalog.cpp).
struct EntryChecks {
  std::function<void(const Provider&)> provider;
  std::function<void(const Device&)> device;
  std::function<void(const Offering&)> offering;
};

// Puts what write_catalog_entries wrote into `catalog`, each entry replacing the one of its
// id, after `checks`; the reader must end with them. On an error `catalog` holds the entries
// before it. `only_offering`, when not empty, scopes the read: the other offerings and the
// devices but the one it names are passed over unread (Catalog::unread), not built.
void read_catalog_entries(snapshot::Reader& r, Catalog& catalog, const EntryChecks& checks = {},
                          std::string_view only_offering = {});

}  // namespace mlsize
