#include "cli/commands/command_catalog.hpp"
#include "cli/options/output_format.hpp"
#include "../unit/names_check.hpp"

#include <catch2/catch.hpp>

using mlsize::testing::check_names_table;

TEST_CASE("the command line's names tables round-trip each of their names", "[names]") {
  check_names_table(mlsize::cli::OutputFormat::html);
  check_names_table(mlsize::cli::CatalogAction::compile);
}
