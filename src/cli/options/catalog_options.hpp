#pragma once
// Where the catalogue comes from: the embedded one, the user's overlays (catalog.d and
// MLSIZE_CATALOG) and each --catalog file. The core loads text; this reads the files.

#include <mlsize/catalog/catalog.hpp>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mlsize::cli {

// $XDG_CONFIG_HOME, or ~/.config; nothing when neither is known (catalog.d and the config
// file live in its mlsize/).
std::optional<std::filesystem::path> config_directory();

// The user's overlay files in the order they apply: the config directory's
// mlsize/catalog.d/*.yaml sorted by name, then each path in MLSIZE_CATALOG.
std::vector<std::string> user_catalog_files();

// The embedded catalogue, then the user's overlays (unless `use_user_catalog` is false),
// then each --catalog file, later files overriding earlier ones by id. `applied`, when
// given, gets the overlay files laid over the embedded catalogue, in order. `only_offering`
// (a command that reads that one offering) builds it alone of the embedded offerings when
// no overlay is laid over them (load_default_catalog); with an overlay, all of them.
Catalog build_catalog(const std::vector<std::string>& catalog_files, bool use_user_catalog,
                      std::vector<std::string>* applied = nullptr, std::string_view only_offering = {});

// A catalogue overlay file's path and text.
struct OverlayText {
  std::string path;
  std::string text;
};

// Reads overlay files, each with the reason it is read (`origins[i]`, for the hint when it
// cannot be; empty for a path the user typed), all before any is parsed: together the YAML
// ones may not pass k_max_overlay_bytes, an error at the file that passes it; compiled ones
// (compiled_catalog.hpp) may each hold up to k_max_compiled_catalog_bytes.
std::vector<OverlayText> read_overlays(const std::vector<std::string>& paths, const std::vector<std::string>& origins);

// Lays `overlay` over `catalog`: a compiled catalogue (compiled_catalog.hpp) or YAML. On an
// error `catalog` may hold part of a compiled one: discard it.
void load_overlay(Catalog& catalog, const OverlayText& overlay);

// Adds --catalog and --no-user-catalog to a command.
void add_catalog_options(CLI::App& command, std::vector<std::string>& catalog_files, bool& no_user_catalog);

}  // namespace mlsize::cli
