#pragma once
// `mlsize catalog list|show|validate|export`: the catalogue itself.

#include "cli/commands/command.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mlsize::cli {

enum class CatalogAction { list, show, validate, export_ };

struct CatalogOptions {
  CatalogAction action = CatalogAction::list;  // set by the subcommand that was parsed
  std::vector<std::string> catalog_files;      // --catalog (list, show, export)
  bool no_user_catalog = false;
  std::optional<std::string> kind;             // list filters
  std::vector<std::string> providers;
  std::optional<std::string> min_memory;
  std::string list_format = "table";
  std::string id;                              // show
  std::string show_format = "yaml";
  std::vector<std::string> files;              // validate
  std::string export_format = "yaml";
};

CLI::App* add_catalog_command(CLI::App& app, CatalogOptions& options);
CommandOutput run_catalog(const CatalogOptions& options);

}  // namespace mlsize::cli
