// The embedded catalogue, rules and model presets are read from snapshots compiled in at
// build time (docs/performance.md): a whole `recommend` given no YAML or JSON file parses
// no YAML or JSON document.
// A count, not a time: it cannot flake on a noisy machine.

#include "core/model/config_reader.hpp"
#include "core/support/yaml_documents.hpp"
#include "run_capture.hpp"

#include <catch2/catch.hpp>

TEST_CASE("recommend with the embedded data parses no YAML, a --catalog file is parsed", "[speed]") {
  const std::size_t before = mlsize::yaml_documents_parsed();
  const mlsize::testing::RunResult run =
      mlsize::testing::run_cli({"recommend", "--params", "7B", "--data", "200GB", "--no-user-catalog"});
  REQUIRE(run.exit_code == 0);
  CHECK(mlsize::yaml_documents_parsed() == before);
  // The counter does count: the rules YAML of a user file is parsed.
  const mlsize::testing::RunResult listed =
      mlsize::testing::run_cli({"rules", "check", MLSIZE_SOURCE_DIR "/data/rules/defaults.yaml"});
  REQUIRE(listed.exit_code == 0);
  CHECK(mlsize::yaml_documents_parsed() == before + 1);
}

TEST_CASE("recommend with a model preset parses no JSON, a --model-config file is parsed", "[speed]") {
  const std::size_t before = mlsize::json_documents_parsed();
  const mlsize::testing::RunResult run =
      mlsize::testing::run_cli({"recommend", "--model", "llama-3-8b", "--data", "200GB", "--no-user-catalog"});
  REQUIRE(run.exit_code == 0);
  CHECK(mlsize::json_documents_parsed() == before);
  const mlsize::testing::RunResult given = mlsize::testing::run_cli(
      {"recommend", "--model-config", MLSIZE_SOURCE_DIR "/data/models/llama-3-8b.json", "--data", "200GB",
       "--no-user-catalog"});
  REQUIRE(given.exit_code == 0);
  CHECK(mlsize::json_documents_parsed() == before + 1);
}
