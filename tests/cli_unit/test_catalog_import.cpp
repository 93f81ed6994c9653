// `mlsize catalog import` as a library: the overlay's YAML (the multi-region `prices:` form),
// written atomically, and nothing written when a file is bad. The input files are the real
// rows under tests/data/skypilot/ (README there).

#include "run_capture.hpp"
#include "temp_files.hpp"

#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using mlsize::testing::fresh_directory;
using mlsize::testing::run_cli;
using mlsize::testing::slurp;
namespace fs = std::filesystem;

namespace {

const std::string k_aws = std::string(MLSIZE_TEST_DATA_DIR) + "/skypilot/aws/vms.csv";

}  // namespace

TEST_CASE("catalog import writes offerings with a prices list, one entry per region", "[import]") {
  const fs::path dir = fresh_directory("mlsize-import-test");
  const fs::path overlay = dir / "aws.yaml";
  const auto result = run_cli({"catalog", "import", "--from", "skypilot", k_aws, "--as-of", "2025-04-28", "--output",
                               overlay.string(), "--no-user-catalog"});
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.empty());
  // p4d: ap-south-1, us-east-1, us-east-2, us-west-2; p5: eu-north-1, us-east-1, us-east-2;
  // trn1.2xlarge and trn1.32xlarge: 3 more prices in the same regions.
  CHECK(result.err.rfind("wrote 4 offerings (10 region prices, 5 regions) to " + overlay.string() + " from 33 rows\n",
                         0) == 0);
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);  // no temporary left

  const YAML::Node root = YAML::Load(slurp(overlay));
  REQUIRE(root["offerings"].size() == 4);
  const YAML::Node p5 = root["offerings"][1];
  CHECK(p5["id"].as<std::string>() == "aws-p5.48xlarge");
  CHECK(!p5["price_per_hour_usd"]);  // either prices: or the single-region fields, not both
  CHECK(!p5["region"]);
  const YAML::Node prices = p5["prices"];
  REQUIRE(prices.size() == 3);
  // The cheapest on demand first (us-east-1 and us-east-2 tie at 98.32: by name), as the
  // loader orders them.
  CHECK(prices[0]["region"].as<std::string>() == "us-east-1");
  CHECK(prices[0]["price_per_hour_usd"].as<double>() == 98.32);
  CHECK(prices[0]["spot_price_per_hour_usd"].as<double>() == 23.1583);
  CHECK(prices[2]["region"].as<std::string>() == "eu-north-1");
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
  CHECK(result.err.find(bad.string() + ":1:1: the header lacks the column \"AcceleratorCount\"") != std::string::npos);
  CHECK(!fs::exists(overlay));
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);  // bad.csv alone
}

TEST_CASE("an imported overlay is ranked with its prices, regions and date", "[import]") {
  const fs::path dir = fresh_directory("mlsize-import-recommend");
  const fs::path overlay = dir / "o.yaml";
  const std::string data = std::string(MLSIZE_TEST_DATA_DIR) + "/skypilot/";
  REQUIRE(run_cli({"catalog", "import", "--from", "skypilot", data + "aws/vms.csv", data + "gcp/vms.csv",
                   data + "lambda/vms.csv", "--as-of", "2026-11-30", "--output", overlay.string(), "--no-user-catalog"})
              .exit_code == 0);
  const YAML::Node written = YAML::Load(slurp(overlay));
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--catalog", overlay.string(),
                               "--no-user-catalog", "--top", "20", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const YAML::Node report = YAML::Load(result.out);  // JSON is YAML
  int imported = 0;
  for (const YAML::Node& plan : report["recommendations"]) {
    const std::string id = plan["offering"]["id"].as<std::string>();
    for (const YAML::Node& offering : written["offerings"]) {
      if (offering["id"].as<std::string>() != id) continue;
      ++imported;
      INFO(id);
      CHECK(plan["offering"]["as_of"].as<std::string>() == "2026-11-30");
      // Priced in the cheapest region the file lists: the first of its prices.
      const YAML::Node cheapest = offering["prices"][0];
      CHECK(plan["offering"]["region"].as<std::string>() == cheapest["region"].as<std::string>());
      CHECK(plan["cost"]["usd_per_unit_hour"].as<double>() == cheapest["price_per_hour_usd"].as<double>());
    }
  }
  CHECK(imported >= 1);  // gcp-tpu-v6e-8 and the p5, at least, rank in the top 20
}

TEST_CASE("an overlay past a catalogue file's size stops the import at the row, before any rendering", "[import]") {
  // 40,000 CPU instance types: at least 260 bytes each in the overlay, past its 3 MiB at row
  // 12,100 (3 MiB / 260 bytes + the header line).
  const fs::path dir = fresh_directory("mlsize-import-large");
  fs::create_directories(dir / "aws");
  {
    std::ofstream csv(dir / "aws" / "vms.csv");
    csv << "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region\n";
    for (int i = 0; i < 40000; ++i) csv << "c9.x" << i << ",,,8.0,32.0,0.25,us-east-1\n";
  }
  const fs::path overlay = dir / "out.yaml";
  const auto result =
      run_cli({"catalog", "import", "--from", "skypilot", (dir / "aws" / "vms.csv").string(), "--as-of", "2026-12-02",
               "--include-cpu", "xeon-8481c", "--output", overlay.string(), "--no-user-catalog"});
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err.find("vms.csv:12100 the overlay passes 3 MiB") != std::string::npos);
  CHECK_FALSE(fs::exists(overlay));
}
