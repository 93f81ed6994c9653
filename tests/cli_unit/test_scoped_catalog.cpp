// `estimate --offering ID` builds that offering alone of the compiled-in catalogue (issue
// 49: the other 500 were 3.1 M of its 5.8 M instructions). Its report must be the one the
// whole catalogue gives: an overlay, even an empty one, makes the run build all of it.

#include "run_capture.hpp"
#include "temp_files.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

using mlsize::testing::run_cli;
using mlsize::testing::RunResult;

namespace {

// The same command run scoped, then over the whole catalogue (an empty overlay laid on it).
struct TwoRuns {
  RunResult scoped;
  RunResult whole;
};

// `folder`: the test's own (ctest runs test cases side by side).
TwoRuns both_ways(const char* folder, std::vector<std::string> args) {
  const std::filesystem::path empty = mlsize::testing::fresh_directory(folder) / "empty.yaml";
  std::ofstream(empty) << "offerings: []\n";
  args.insert(args.end(), {"--no-user-catalog", "--today", "2026-12-07"});
  TwoRuns runs{run_cli(args), {}};
  args.insert(args.end(), {"--catalog", empty.string()});
  runs.whole = run_cli(args);
  // The table's last line names the overlay.
  const std::string named = "Catalogue overlays in force: " + empty.string() + ".\n";
  if (const std::size_t at = runs.whole.out.find(named); at != std::string::npos)
    runs.whole.out.erase(at, named.size());
  return runs;
}

}  // namespace

TEST_CASE("estimate --offering reports the same whether it builds one offering or all", "[catalog][speed]") {
  const std::vector<std::vector<std::string>> workloads{
      {"--params", "7B", "--data", "200GB"},
      {"--model", "llama-3-8b", "--task", "qlora", "--data", "1GB"},
      {"--model", "llama-3-70b", "--task", "inference", "--rate", "2", "--prompt-tokens", "1000", "--output-tokens",
       "200"},
      {"--model", "resnet-50", "--images", "1.28M", "--epochs", "90"},
  };
  // A cloud offering priced in several regions, a one-GPU cloud, on-premise hardware, a
  // free tier, a TPU slice and a CPU machine.
  const std::vector<std::string> offerings{"aws-p4d.24xlarge", "runpod-1x_a100-80gb_secure", "on-prem-dgx-a100-320gb",
                                           "kaggle-gpu-t4x2",  "gcp-tpu-v5litepod-8",        "azure-standard_f4s_v2"};
  for (const std::vector<std::string>& workload : workloads) {
    for (const std::string& offering : offerings) {
      std::vector<std::string> args{"estimate", "--offering", offering};
      args.insert(args.end(), workload.begin(), workload.end());
      INFO(offering << " " << workload[1]);
      TwoRuns table = both_ways("mlsize-scoped-catalog", args);
      CHECK(table.scoped.exit_code == table.whole.exit_code);
      CHECK(table.scoped.out == table.whole.out);
      CHECK(table.scoped.err == table.whole.err);
      args.insert(args.end(), {"--format", "json"});
      TwoRuns json = both_ways("mlsize-scoped-catalog", args);
      REQUIRE(json.scoped.exit_code == json.whole.exit_code);
      if (json.scoped.out.empty()) continue;  // a usage error, said alike on stderr above
      nlohmann::json scoped = nlohmann::json::parse(json.scoped.out);
      nlohmann::json whole = nlohmann::json::parse(json.whole.out);
      // The provenance counts the whole catalogue either way; only the overlay differs.
      REQUIRE(whole["provenance"]["catalog"]["overlays"].size() == 1);
      whole["provenance"]["catalog"]["overlays"] = nlohmann::json::array();
      CHECK(scoped == whole);
      CHECK(scoped["provenance"]["catalog"]["offerings"].get<int>() > 500);
    }
  }
}

TEST_CASE("estimate --offering with an id the catalogue lacks names the nearest ids of all of it", "[catalog]") {
  const TwoRuns runs =
      both_ways("mlsize-scoped-catalog-unknown", {"estimate", "--params", "7B", "--offering", "aws-p4d.24xlarg"});
  CHECK(runs.scoped.exit_code == 2);
  CHECK(runs.scoped.err == runs.whole.err);
  CHECK_THAT(runs.scoped.err, Catch::Contains("aws-p4d.24xlarge"));
}
