// --here on a recorded machine (tests/data/detect/): what it plans on is the machine's own,
// not a cloud's, in its threads per core and its setup time.

#include "run_capture.hpp"
#include "temp_files.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using mlsize::testing::fresh_directory;
using mlsize::testing::run_cli;
namespace fs = std::filesystem;

// A machine without SMT (AWS c5.2xlarge with ThreadsPerCore=1: 4 vCPUs, 4 cores) has as many
// cores as threads: --here plans on all 4, not on the clouds' vCPUs / 2; and a local run is
// not provisioned, so it has no cloud setup time unless --setup-time asks for one (issue 27).
TEST_CASE("here: threads per core come from the machine, and a local run has no setup time", "[cli][detect]") {
  const fs::path dir = fresh_directory("mlsize-here-no-smt");
  const std::string recorded = std::string(MLSIZE_TEST_DATA_DIR) + "/detect/no-gpu-c5/";
  std::ifstream cpuinfo(recorded + "cpuinfo");
  std::ofstream no_smt(dir / "cpuinfo");
  int processors = 0;
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("processor", 0) == 0 && ++processors > 4) break;  // the first 4 logical CPUs
    if (line.rfind("siblings", 0) == 0) line = "siblings\t: 4";
    no_smt << line << "\n";
  }
  no_smt.close();
  fs::copy_file(recorded + "meminfo", dir / "meminfo");
  const auto workers = [](const std::vector<std::string>& args) {
    const auto result = run_cli(args);
    REQUIRE(result.exit_code == 0);
    const auto json = nlohmann::json::parse(result.out);
    const auto& plan = json["recommendations"][0];
    CHECK(plan["time"]["setup_seconds"] == 0.0);
    return plan["compute"]["gbdt"]["workers"].get<int>();
  };
  const std::vector<std::string> gbdt{"--task", "gbdt", "--data", "2GB", "--format", "json"};
  std::vector<std::string> smt{"recommend", "--here", "--from", recorded};
  std::vector<std::string> without{"recommend", "--here", "--from", dir.string()};
  smt.insert(smt.end(), gbdt.begin(), gbdt.end());
  without.insert(without.end(), gbdt.begin(), gbdt.end());
  CHECK(workers(smt) == 4);      // 8 threads on 4 cores
  CHECK(workers(without) == 4);  // 4 threads on 4 cores: was 2
  without.insert(without.end(), {"--setup-time", "5m"});
  const auto asked = nlohmann::json::parse(run_cli(without).out);
  CHECK(asked["recommendations"][0]["time"]["setup_seconds"] == 300.0);
}
