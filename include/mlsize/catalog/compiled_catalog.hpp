#pragma once
// A catalogue overlay in compiled form (issue 49): the entries of YAML overlays or of a
// price import, validated once, written as compact bytes that load in a fraction of YAML's
// time and memory, for catalogues of any size (YAML overlays stop at k_max_overlay_bytes).
// YAML stays the format people write; `mlsize catalog compile` and `catalog import
// --compiled` write this one, and `--catalog FILE` reads either (docs/catalogue.md#compiled-catalogues).
//
// Layout: k_compiled_catalog_magic; a u32 0x01020304 in the writer's byte order; the format
// version; the catalogue layout version; the payload's size (u64) and its FNV-1a 64-bit
// checksum; the payload, as the compiled-in catalogue's snapshot writes its entries.
// A file of another byte order, format or layout is refused as stale, one whose checksum
// or entries do not hold as corrupt; every entry is validated again as it is read, as its
// bytes are a user's file (the checksum finds damage, not intent).

#include <mlsize/catalog/catalog.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mlsize {

// Not text (0x89), and broken by any newline or end-of-file conversion, as PNG's signature.
inline constexpr char k_compiled_catalog_magic[] = "\x89mlsize-catalog\r\n\x1a\n";
inline constexpr std::uint32_t k_compiled_catalog_format = 1;
// What one compiled catalogue may hold: about 3.5 million offerings as catalog import
// writes them (~300 bytes each), far past the catalogues measured (docs/performance.md).
inline constexpr std::size_t k_max_compiled_catalog_bytes = std::size_t{1} << 30;

// Whether `bytes` start as a compiled catalogue does.
bool is_compiled_catalog(std::string_view bytes);

// The providers, devices and offerings of `overlay`, compiled.
std::string write_compiled_catalog(const Catalog& overlay);

// The overlay `bytes` hold; throws Error (input) at `source_name` when they are stale
// (another byte order, format or layout), truncated, fail their checksum, or hold an entry
// that is not valid (the checks of the YAML reader's, docs/catalogue.md).
Catalog read_compiled_catalog(std::string_view bytes, std::string_view source_name);
// The same laid over `catalog` as it is read, each entry replacing the one of its id: no
// second copy of a large overlay. On an error `catalog` holds part of it: discard it (the
// command line does, failing the run).
void lay_compiled_catalog(Catalog& catalog, std::string_view bytes, std::string_view source_name);

}  // namespace mlsize
