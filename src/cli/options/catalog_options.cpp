#include "cli/options/catalog_options.hpp"

#include "cli/io/input_file.hpp"
#include "cli/options/option_conventions.hpp"

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/compiled_catalog.hpp>
#include <mlsize/support/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>

namespace mlsize::cli {

void add_catalog_options(CLI::App& command, std::vector<std::string>& catalog_files, bool& no_user_catalog) {
  CLI::App* in = &option_group(command, k_group_sources);
  in->add_option("--catalog", catalog_files, "Catalogue YAML or compiled catalogue laid over the default; repeatable")
      ->type_name("FILE");
  in->add_flag("--no-user-catalog", no_user_catalog,
               "Ignore ~/.config/mlsize/catalog.d and MLSIZE_CATALOG (the embedded catalogue and --catalog only)");
}

// The XDG base directory spec says a relative XDG_CONFIG_HOME is invalid and to be ignored.
std::optional<std::filesystem::path> config_directory() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::filesystem::path(xdg);
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] != '\0') return std::filesystem::path(home) / ".config";
  return std::nullopt;
}

namespace {

// Regular files (or links to them) named *.yaml, sorted by name; a missing directory has none.
std::vector<std::string> catalog_d_files(const std::filesystem::path& directory) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code error;
  if (!fs::is_directory(directory, error)) return files;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    // Like the shell's *.yaml and *.mlcat (compiled catalogues): hidden files (editor
    // backups, .#locks) do not match.
    const bool named = name.ends_with(".yaml") || name.ends_with(".mlcat");
    if (name.front() != '.' && named && it->is_regular_file(error)) {
      files.push_back(it->path().string());
    }
  }
  if (error) {
    Error failure(ErrorKind::input, "cannot read the directory: " + error.message(),
                  "fix its permissions, or run with --no-user-catalog");
    failure.at(SourceLocation{directory.string(), 0, 0, {}});
    throw failure;
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Reads a catalogue file; `origin` explains in a hint where a user overlay's path came from.
std::string read_catalog_file(const std::string& path, const std::string& origin) {
  try {
    // A compiled catalogue may be far larger than YAML (k_max_compiled_catalog_bytes).
    const std::string head = read_file_head(path, sizeof k_compiled_catalog_magic - 1);
    if (is_compiled_catalog(head)) return read_input_file(path, k_max_compiled_catalog_bytes);
    return read_input_file(path, k_max_overlay_bytes);
  } catch (const Error& error) {
    if (origin.empty() || !error.hint().empty()) throw;
    Error explained(error.kind(), error.message(), origin + "; --no-user-catalog skips it");
    explained.at(error.location());
    throw explained;
  }
}

}  // namespace

namespace {

struct UserCatalogFile {
  std::string path;
  std::string origin;  // for the hint when it cannot be read
};

std::vector<UserCatalogFile> user_catalog_sources() {
  std::vector<UserCatalogFile> files;
  if (auto directory = config_directory()) {
    for (std::string& path : catalog_d_files(*directory / "mlsize" / "catalog.d")) {
      files.push_back({std::move(path), "a file in the mlsize/catalog.d directory"});
    }
  }
  if (const char* list = std::getenv("MLSIZE_CATALOG")) {
    // A path list like PATH; empty entries (a stray ':') name nothing.
    const std::string_view paths(list);
    std::size_t start = 0;
    while (start <= paths.size()) {
      const std::size_t end = std::min(paths.find(':', start), paths.size());
      if (end > start) {
        files.push_back(
            {std::string(paths.substr(start, end - start)), "named by the environment variable MLSIZE_CATALOG"});
      }
      start = end + 1;
    }
  }
  return files;
}

}  // namespace

std::vector<std::string> user_catalog_files() {
  std::vector<std::string> paths;
  for (UserCatalogFile& file : user_catalog_sources()) paths.push_back(std::move(file.path));
  return paths;
}

std::vector<OverlayText> read_overlays(const std::vector<std::string>& paths, const std::vector<std::string>& origins) {
  std::vector<OverlayText> overlays;
  std::size_t total = 0;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string& origin = i < origins.size() ? origins[i] : std::string();
    overlays.push_back({paths[i], read_catalog_file(paths[i], origin)});
    if (is_compiled_catalog(overlays.back().text)) continue;  // not YAML: no YAML limit
    total += overlays.back().text.size();
    if (total > k_max_overlay_bytes) {
      Error error(
          ErrorKind::input,
          "the catalogue overlays come to " + fmt::format("{:.1f}", static_cast<double>(total) / (1 << 20)) +
              " MiB with this file, over the " + std::to_string(k_max_overlay_bytes >> 20) +
              " MiB one run reads; nothing was loaded",
          "about 4,500 offerings as catalog import writes them, 1.5 s to load (docs/reliability.md#limits); for more, "
          "compile them: mlsize catalog compile FILE.yaml... --output FILE (docs/catalogue.md#compiled-catalogues)" +
              (origin.empty() ? std::string() : "; this one is " + origin + " (--no-user-catalog skips it)"));
      error.at(SourceLocation{paths[i], 0, 0, {}});
      throw error;
    }
  }
  return overlays;
}

void load_overlay(Catalog& catalog, const OverlayText& overlay) {
  if (is_compiled_catalog(overlay.text)) {
    lay_compiled_catalog(catalog, overlay.text, overlay.path);
  } else {
    load_catalog_yaml(catalog, overlay.text, overlay.path);
  }
}

Catalog build_catalog(const std::vector<std::string>& catalog_files, bool use_user_catalog,
                      std::vector<std::string>* applied, std::string_view only_offering) {
  std::vector<std::string> paths;
  std::vector<std::string> origins;
  if (use_user_catalog) {
    for (UserCatalogFile& file : user_catalog_sources()) {
      paths.push_back(std::move(file.path));
      origins.push_back(std::move(file.origin));
    }
  }
  paths.insert(paths.end(), catalog_files.begin(), catalog_files.end());
  // An overlay may replace or add offerings, which a scoped catalogue could not count.
  Catalog catalog = load_default_catalog(paths.empty() ? only_offering : std::string_view());
  for (const OverlayText& overlay : read_overlays(paths, origins)) load_overlay(catalog, overlay);
  if (applied != nullptr) applied->insert(applied->end(), paths.begin(), paths.end());
  // The built-in catalogue comes checked (load_default_catalog): only overlays need it again.
  if (!paths.empty()) catalog.check_references();
  return catalog;
}

}  // namespace mlsize::cli
