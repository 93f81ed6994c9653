// Every command of README.md's "More examples" runs as written from the repository root,
// with the files in examples/, and exits as its comment says (0, or 3 where it says so).

#include "run_capture.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using mlsize::testing::run_cli;
namespace fs = std::filesystem;

namespace {

// The lines of README's block after "More examples:".
std::vector<std::string> readme_examples() {
  std::ifstream readme(std::string(MLSIZE_SOURCE_DIR) + "/README.md");
  std::vector<std::string> lines;
  bool after_heading = false;
  bool in_block = false;
  for (std::string line; std::getline(readme, line);) {
    if (line == "More examples:") after_heading = true;
    if (!after_heading || !line.starts_with("```")) {
      if (in_block) lines.push_back(line);
      continue;
    }
    if (in_block) break;
    in_block = true;
  }
  return lines;
}

// Restores the working directory and an environment variable at the end of a scope.
struct InSourceDir {
  fs::path before = fs::current_path();
  InSourceDir() { fs::current_path(MLSIZE_SOURCE_DIR); }
  ~InSourceDir() {
    fs::current_path(before);
    ::unsetenv("MLSIZE_CONFIG");
  }
};

}  // namespace

TEST_CASE("README's examples run as written", "[examples]") {
  const InSourceDir here;
  const std::vector<std::string> examples = readme_examples();
  REQUIRE(examples.size() >= 15);
  for (const std::string& example : examples) {
    // The command before a comment or a pipe (jq is not ours to run).
    std::string command = example.substr(0, example.find('#'));
    command = command.substr(0, command.find('|'));
    std::istringstream words(command);
    std::vector<std::string> args;
    for (std::string word; words >> word;) {
      if (word.starts_with("MLSIZE_CONFIG=")) {
        ::setenv("MLSIZE_CONFIG", word.substr(14).c_str(), 1);
      } else if (word != "mlsize") {
        args.push_back(word);
      }
    }
    const auto result = run_cli(args);
    ::unsetenv("MLSIZE_CONFIG");
    INFO(example << "\n" << result.err);
    CHECK(result.exit_code == (example.find("exit 3") != std::string::npos ? 3 : 0));
    CHECK(!result.out.empty());
  }
}
