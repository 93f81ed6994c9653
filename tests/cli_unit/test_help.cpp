// --help as a user reads it: every line within 80 columns, options grouped with value
// names, examples that run as written, and last-wins for a repeated single-value flag.

#include "run_capture.hpp"

#include <mlsize/support/utf8.hpp>

#include <catch2/catch.hpp>

#include <set>
#include <sstream>
#include <string>
#include <vector>

using mlsize::testing::run_cli;

namespace {

const std::vector<std::vector<std::string>> k_help_pages{
    {},           {"recommend"}, {"estimate"}, {"explain"},         {"catalog"},         {"catalog", "list"},
    {"catalog", "show"}, {"catalog", "validate"}, {"catalog", "export"}, {"rules"}, {"rules", "list"}, {"rules", "check"}, {"detect"}, {"completion"}};

std::string help_of(std::vector<std::string> command) {
  command.push_back("--help");
  const auto result = run_cli(command);
  REQUIRE(result.exit_code == 0);
  REQUIRE(result.err.empty());
  return result.out;
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> result;
  for (std::string word; in >> word;) result.push_back(word);
  return result;
}

}  // namespace

TEST_CASE("every help page fits 80 columns", "[cli][help]") {
  for (const auto& command : k_help_pages) {
    std::istringstream lines(help_of(command));
    for (std::string line; std::getline(lines, line);) {
      INFO(line);
      CHECK(mlsize::display_width(line) <= 80);
    }
  }
}

TEST_CASE("options are grouped and name their values", "[cli][help]") {
  const std::string help = help_of({"recommend"});
  for (const char* group : {"\nModel and task:\n", "\nData:\n", "\nTraining:\n", "\nInference and serving:\n",
                            "\nHardware:\n", "\nConstraints and cost:\n", "\nOutput:\n"}) {
    INFO(group);
    CHECK(help.find(group) != std::string::npos);
  }
  // The groups come in this order, Output last.
  CHECK(help.find("\nModel and task:") < help.find("\nData:"));
  CHECK(help.find("\nHardware:") < help.find("\nConstraints and cost:"));
  CHECK(help.find("\nConstraints and cost:") < help.find("\nOutput:"));
  for (const char* option : {"--data BYTES", "--deadline DURATION", "--budget USD", "--mfu FRACTION", "--params COUNT",
                             "--gpus ACC[:N] ..."}) {
    INFO(option);
    CHECK(help.find("  " + std::string(option) + " ") != std::string::npos);
  }
  CHECK(help.find(" TEXT") == std::string::npos);
}

// Each heading's options are a CLI11 option group, and CLI11 checks a new flag's names only
// within its group (option_group in cli/options/option_conventions.hpp): a flag named twice
// in one command would be taken by whichever group comes first. Every page lists each once.
TEST_CASE("a flag names one option of its command", "[cli][help]") {
  for (const auto& command : k_help_pages) {
    std::istringstream lines(help_of(command));
    std::set<std::string> seen;
    int flags = 0;
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("  -")) continue;
      std::string names = words(line).front();  // "-q,--quiet" or "--data"
      for (std::size_t start = 0; start < names.size();) {
        const std::size_t comma = std::min(names.find(',', start), names.size());
        const std::string name = names.substr(start, comma - start);
        INFO(name);
        CHECK(seen.insert(name).second);
        ++flags;
        start = comma + 1;
      }
    }
    CHECK(flags > 0);
  }
}

TEST_CASE("the examples in --help run as written", "[cli][help]") {
  int run = 0;
  for (const auto& command : k_help_pages) {
    std::istringstream lines(help_of(command));
    bool in_examples = false;
    for (std::string line; std::getline(lines, line);) {
      // A long example is broken as the shell reads it back: " \" then the rest, indented.
      for (std::string rest; line.ends_with(" \\") && std::getline(lines, rest);) {
        line = line.substr(0, line.size() - 2) + " " + rest.substr(rest.find_first_not_of(' '));
      }
      if (line == "Examples:") in_examples = true;
      if (!in_examples || line.rfind("  mlsize ", 0) != 0) continue;
      // Those that need a file of the user's (a rules file) or redirect are shown, not run.
      if (line.find(".yaml") != std::string::npos || line.find('>') != std::string::npos) continue;
      std::vector<std::string> args = words(line);
      args.erase(args.begin());
      const auto result = run_cli(args);
      INFO(line << "\n" << result.err);
      CHECK(result.exit_code == 0);
      ++run;
    }
  }
  CHECK(run >= 12);
}

TEST_CASE("a repeated single-value flag takes its last value", "[cli][help]") {
  const auto last = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--top", "1", "--top", "2", "--optimize",
                             "time", "--optimize", "cost", "--format", "json"});
  const auto plain =
      run_cli({"recommend", "--params", "7B", "--data", "200GB", "--top", "2", "--optimize", "cost", "--format", "json"});
  REQUIRE(last.exit_code == 0);
  CHECK(last.out == plain.out);
  // Repeatable flags still gather every value.
  const auto both = run_cli({"catalog", "list", "--provider", "aws", "--provider", "gcp", "--format", "csv"});
  REQUIRE(both.exit_code == 0);
  CHECK(both.out.find(",aws,") != std::string::npos);
  CHECK(both.out.find(",gcp,") != std::string::npos);
}

TEST_CASE("offering, provider and model ids are read in any case", "[cli][help]") {
  const auto lower = run_cli({"estimate", "--params", "7B", "--offering", "aws-p5.48xlarge", "--zero", "3", "--format", "json"});
  const auto upper = run_cli({"estimate", "--params", "7B", "--offering", "AWS-P5.48XLARGE", "--zero", "3", "--format", "json"});
  REQUIRE(lower.exit_code == 0);
  CHECK(upper.out == lower.out);
  CHECK(run_cli({"catalog", "show", "AWS-P5.48XLARGE"}).exit_code == 0);
  const auto mixed = run_cli({"recommend", "--model", "LLaMA-2-7B", "--data", "2GB", "--provider", "AWS", "--owned",
                              "On-Prem-DGX-B200", "--top", "1", "--format", "json"});
  INFO(mixed.err);
  CHECK(mixed.exit_code == 0);
}
