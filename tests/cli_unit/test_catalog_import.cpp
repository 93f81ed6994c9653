// `mlsize catalog import` as a library: the overlay's YAML (the multi-region `prices:` form),
// written atomically, and nothing written when a file is bad. The input files are the real
// rows under tests/data/skypilot/ (README there).

#include "run_capture.hpp"

#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using mlsize::testing::run_cli;
namespace fs = std::filesystem;

namespace {

const std::string k_aws = std::string(MLSIZE_TEST_DATA_DIR) + "/skypilot/aws/vms.csv";

fs::path fresh_directory(const char* name) {
  const fs::path dir = fs::temp_directory_path() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const fs::path& path) {
  std::ifstream stream(path);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("catalog import writes offerings with a prices list, one entry per region", "[import]") {
  const fs::path dir = fresh_directory("mlsize-import-test");
  const fs::path overlay = dir / "aws.yaml";
  const auto result = run_cli({"catalog", "import", "--from", "skypilot", k_aws, "--as-of", "2025-04-28", "--output",
                               overlay.string(), "--no-user-catalog"});
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.empty());
  // p4d: ap-south-1, us-east-1, us-east-2, us-west-2; p5: eu-north-1, us-east-1, us-east-2.
  CHECK(result.err.rfind("wrote 2 offerings (7 region prices, 5 regions) to " + overlay.string() + " from 33 rows\n",
                         0) == 0);
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);  // no temporary left

  const YAML::Node root = YAML::Load(slurp(overlay));
  REQUIRE(root["offerings"].size() == 2);
  const YAML::Node p5 = root["offerings"][1];
  CHECK(p5["id"].as<std::string>() == "aws-p5.48xlarge");
  CHECK(!p5["price_per_hour_usd"]);  // either prices: or the single-region fields, not both
  CHECK(!p5["region"]);
  const YAML::Node prices = p5["prices"];
  REQUIRE(prices.size() == 3);
  CHECK(prices[1]["region"].as<std::string>() == "us-east-1");
  CHECK(prices[1]["price_per_hour_usd"].as<double>() == 98.32);
  CHECK(prices[1]["spot_price_per_hour_usd"].as<double>() == 23.1583);
  CHECK(p5["as_of"].as<std::string>() == "2025-04-28");
  CHECK(p5["source"].as<std::string>() == "aws/vms.csv lines 16-27, imported by mlsize catalog import");
}

TEST_CASE("catalog import writes nothing when a file is not its format", "[import]") {
  const fs::path dir = fresh_directory("mlsize-import-bad");
  const fs::path bad = dir / "bad.csv";
  std::ofstream(bad) << "InstanceType,AcceleratorName\np5.48xlarge,H100\n";
  const fs::path overlay = dir / "out.yaml";
  const auto result = run_cli({"catalog", "import", "--from", "skypilot", k_aws, bad.string(), "--provider", "aws",
                               "--as-of", "2025-04-28", "--output", overlay.string(), "--no-user-catalog"});
  CHECK(result.exit_code == 1);
  CHECK(result.err.find(bad.string() + ":1:1: the header lacks the column \"AcceleratorCount\"") !=
        std::string::npos);
  CHECK(!fs::exists(overlay));
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);  // bad.csv alone
}
