// Compiled catalogues at the command line (issue 49): `catalog import --compiled` and
// `catalog compile` write what `--catalog` reads at any size; a stale or corrupt one, a
// compiled catalogue asked for on stdout, and YAML past its limit are refused with the file
// or flag named, nothing on stdout and nothing written. The rows are the real ones under
// tests/data/skypilot/ (README there).

#include "run_capture.hpp"
#include "temp_files.hpp"

#include <mlsize/catalog/compiled_catalog.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

using mlsize::testing::fresh_directory;
using mlsize::testing::run_cli;
using mlsize::testing::slurp;
namespace fs = std::filesystem;

namespace {

const std::string k_aws = std::string(MLSIZE_TEST_DATA_DIR) + "/skypilot/aws/vms.csv";

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// An offering of our own, priced below every other 8 x H100 on demand.
const char* k_ours = R"(offerings:
  - id: ours-8x-h100
    provider: aws
    kind: cloud
    name: our 8 x H100 box
    device: h100-sxm
    devices_per_unit: 8
    vcpus: 192
    host_memory_gib: 2048
    price_per_hour_usd: 1.0
    region: us-east-1
    source: "our contract, 2026"
    as_of: "2026-11-01"
)";

}  // namespace

TEST_CASE("catalog compile writes what --catalog reads, and ranks it", "[compiled]") {
  const fs::path dir = fresh_directory("mlsize-compile-test");
  write(dir / "ours.yaml", k_ours);
  const fs::path compiled = dir / "ours.mlcat";
  const auto made =
      run_cli({"catalog", "compile", (dir / "ours.yaml").string(), "--output", compiled.string(), "--no-user-catalog"});
  REQUIRE(made.exit_code == 0);
  CHECK(made.out.empty());
  CHECK(made.err == "compiled 1 file(s): 0 devices, 1 offerings into " + compiled.string() + "\n");
  CHECK(mlsize::is_compiled_catalog(slurp(compiled)));

  const auto yaml = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--format", "json", "--catalog",
                             (dir / "ours.yaml").string(), "--no-user-catalog"});
  const auto bytes = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--format", "json", "--catalog",
                              compiled.string(), "--no-user-catalog"});
  REQUIRE(yaml.exit_code == 0);
  REQUIRE(bytes.exit_code == 0);
  const nlohmann::json a = nlohmann::json::parse(yaml.out);
  const nlohmann::json b = nlohmann::json::parse(bytes.out);
  // The same ranking from either form of the same entries, ours first at $1 an hour.
  CHECK(a["recommendations"] == b["recommendations"]);
  CHECK(b["recommendations"][0]["offering"]["id"] == "ours-8x-h100");

  const auto validated = run_cli({"catalog", "validate", compiled.string()});
  CHECK(validated.exit_code == 0);
  CHECK(validated.out == "ok: " + compiled.string() + " (0 devices, 1 offerings)\n");
}

TEST_CASE("catalog import --compiled writes a compiled catalogue of the import", "[compiled][import]") {
  const fs::path dir = fresh_directory("mlsize-import-compiled");
  const fs::path compiled = dir / "aws.mlcat";
  const auto made = run_cli({"catalog", "import", "--from", "skypilot", k_aws, "--as-of", "2025-04-28", "--compiled",
                             "--output", compiled.string(), "--no-user-catalog"});
  REQUIRE(made.exit_code == 0);
  CHECK(made.out.empty());
  CHECK(made.err.rfind("wrote 4 offerings (10 region prices, 5 regions) to " + compiled.string(), 0) == 0);
  const auto shown =
      run_cli({"catalog", "show", "aws-p5.48xlarge", "--format", "json", "--catalog", compiled.string(),
               "--no-user-catalog"});
  REQUIRE(shown.exit_code == 0);
  CHECK(shown.out.find("aws/vms.csv lines 16-27, imported by mlsize catalog import") != std::string::npos);
}

TEST_CASE("a compiled catalogue is refused on stdout, stale or corrupt, with nothing written", "[compiled]") {
  const fs::path dir = fresh_directory("mlsize-compiled-refused");
  write(dir / "ours.yaml", k_ours);
  const auto to_stdout = run_cli({"catalog", "compile", (dir / "ours.yaml").string(), "--output", "-"});
  CHECK(to_stdout.exit_code == 2);
  CHECK(to_stdout.out.empty());
  CHECK(to_stdout.err.find("--output") != std::string::npos);

  const fs::path compiled = dir / "ours.mlcat";
  REQUIRE(run_cli({"catalog", "compile", (dir / "ours.yaml").string(), "--output", compiled.string(),
                   "--no-user-catalog"})
              .exit_code == 0);
  std::string bytes = slurp(compiled);
  const std::size_t layout_at = sizeof mlsize::k_compiled_catalog_magic - 1 + 8;
  bytes[layout_at] = static_cast<char>(bytes[layout_at] + 1);
  write(dir / "stale.mlcat", bytes);
  const auto stale = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--catalog",
                              (dir / "stale.mlcat").string(), "--no-user-catalog"});
  CHECK(stale.exit_code == 1);
  CHECK(stale.out.empty());
  CHECK(stale.err.find((dir / "stale.mlcat").string()) != std::string::npos);
  CHECK(stale.err.find("stale") != std::string::npos);
  CHECK(stale.err.find("mlsize catalog compile") != std::string::npos);

  std::string cut = slurp(compiled);
  write(dir / "cut.mlcat", cut.substr(0, cut.size() - 5));
  const auto corrupt =
      run_cli({"catalog", "validate", (dir / "cut.mlcat").string()});
  CHECK(corrupt.exit_code == 1);
  CHECK(corrupt.out.empty());
  CHECK(corrupt.err.find("corrupt") != std::string::npos);

  // A device that does not resolve: nothing is written.
  std::string unknown = k_ours;
  unknown.replace(unknown.find("h100-sxm"), 8, "h100-sxn");
  write(dir / "unknown.yaml", unknown);
  const auto unresolved = run_cli({"catalog", "compile", (dir / "unknown.yaml").string(), "--output",
                                   (dir / "unknown.mlcat").string(), "--no-user-catalog"});
  CHECK(unresolved.exit_code == 1);
  CHECK(unresolved.err.find("h100-sxm") != std::string::npos);  // did you mean
  CHECK_FALSE(fs::exists(dir / "unknown.mlcat"));
}

TEST_CASE("YAML overlays past their limit point to the compiled form", "[compiled]") {
  const fs::path dir = fresh_directory("mlsize-yaml-limit");
  write(dir / "a.yaml", "offerings: []\n" + std::string(2 * 1024 * 1024, '#') + "\n");
  write(dir / "b.yaml", "offerings: []\n" + std::string(2 * 1024 * 1024, '#') + "\n");
  const auto two = run_cli({"catalog", "list", "--catalog", (dir / "a.yaml").string(), "--catalog",
                            (dir / "b.yaml").string(), "--no-user-catalog"});
  CHECK(two.exit_code == 1);
  CHECK(two.out.empty());
  CHECK(two.err.find("catalog compile") != std::string::npos);
  // Each file within the limit compiles, their sum unbounded.
  const auto compiled = run_cli({"catalog", "compile", (dir / "a.yaml").string(), (dir / "b.yaml").string(),
                                 "--output", (dir / "ab.mlcat").string(), "--no-user-catalog"});
  CHECK(compiled.exit_code == 0);
}
