#include "cli/options/choice.hpp"
#include "run_capture.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using mlsize::cli::choices_in_help;
using mlsize::testing::run_cli;
using Names = std::vector<std::string>;

TEST_CASE("choices_in_help reads back the lists choice_help writes", "[completion]") {
  CHECK(choices_in_help("cost | time | balanced (default cost)") == Names{"cost", "time", "balanced"});
  CHECK(choices_in_help("Training: fp32 | bf16 (default bf16); inference: the weights, bf16 | int4") ==
        Names{"fp32", "bf16", "int4"});
  CHECK(choices_in_help("gpu | tpu | cpu: only devices of this kind") == Names{"gpu", "tpu", "cpu"});
  CHECK(choices_in_help("all-linear | attention | a list of q,k,v (default all-linear)") ==
        Names{"all-linear", "attention"});
  CHECK(choices_in_help("none | optimizer | optimizer+params") == Names{"none", "optimizer", "optimizer+params"});
  CHECK(choices_in_help("Model size in parameters, e.g. 7B, 350M").empty());
}

TEST_CASE("mlsize completion writes a script for each shell from every command", "[completion]") {
  for (const std::string shell : {"bash", "zsh", "fish"}) {
    INFO(shell);
    const auto result = run_cli({"completion", shell});
    CHECK(result.exit_code == 0);
    CHECK(result.err.empty());
    for (const char* word : {"recommend", "estimate", "explain", "catalog", "rules", "detect", "completion", "--optimize",
                             "balanced", "--offering", "--ids"}) {
      CHECK(result.out.find(word) != std::string::npos);
    }
  }
  CHECK(run_cli({"completion", "bash"}).out.find("complete -F _mlsize mlsize") != std::string::npos);
}

TEST_CASE("mlsize completion --ids lists ids one a line", "[completion]") {
  const auto devices = run_cli({"completion", "--ids", "devices"});
  CHECK(devices.exit_code == 0);
  CHECK(devices.out.find("\nh100-sxm\n") != std::string::npos);
  CHECK(devices.out.find("\nh100\n") != std::string::npos);  // an alias
  const auto offerings = run_cli({"completion", "--ids", "offerings"});
  CHECK(offerings.out.find("\naws-p5.48xlarge\n") != std::string::npos);
  CHECK(run_cli({"completion", "--ids", "models"}).out.find("llama-2-7b\n") != std::string::npos);
  CHECK(run_cli({"completion", "--ids", "providers"}).out.find("aws\n") != std::string::npos);
  CHECK(run_cli({"completion", "--ids", "gpus"}).exit_code == 2);
  CHECK(run_cli({"completion", "bash", "--ids", "models"}).exit_code == 2);
}
