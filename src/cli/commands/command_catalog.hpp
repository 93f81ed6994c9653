#pragma once
// `mlsize catalog list|show|validate|export|import|compile`: the catalogue itself, overlays
// made from public price files, and overlays compiled for catalogues of any size.

#include "cli/commands/command.hpp"
#include "cli/options/hardware_filter.hpp"

#include <mlsize/support/names.hpp>

#include <CLI/CLI.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace mlsize::cli {

// The subcommands, named by their table.
enum class CatalogAction { list, show, validate, export_, import_, compile };
constexpr auto enum_names(CatalogAction) {
  using enum CatalogAction;
  return std::to_array<EnumName<CatalogAction>>({{list, "list"},
                                                 {show, "show"},
                                                 {validate, "validate"},
                                                 {export_, "export"},
                                                 {import_, "import"},
                                                 {compile, "compile"}});
}

struct CatalogOptions {
  CatalogAction action = CatalogAction::list;  // set by the subcommand that was parsed
  std::vector<std::string> catalog_files;      // --catalog (list, show, export)
  bool no_user_catalog = false;
  HardwareOptions hardware;  // list filters: --kind, --min-memory
  std::vector<std::string> providers;
  std::optional<std::string> list_format;
  bool wide = false;  // list: every column
  std::string id;     // show
  std::optional<std::string> show_format;
  std::vector<std::string> files;  // validate, compile
  std::string compile_output;      // compile: --output
  std::optional<std::string> export_format;
  std::string import_from;  // import: --from, the files, --output, --as-of, --provider, --include-cpu, --origin
  std::vector<std::string> import_files;
  std::string import_output;
  std::string import_as_of;
  std::string import_provider;
  std::string import_cpu_device;
  std::string import_origin;
  bool import_without_refreshed = false;
  bool import_compiled = false;  // import: --compiled
};

CLI::App* add_catalog_command(CLI::App& app, CatalogOptions& options, bool with_options = true);  // see commands.hpp
CommandOutput run_catalog(const CatalogOptions& options);

}  // namespace mlsize::cli
