// Every `$ mlsize ...` block pasted in README.md and docs/*.md shows what the build prints:
// the command after `$ ` (mlsize or build/mlsize, words without quotes) is run in-process
// and its stdout (and stderr, on a non-zero exit) must equal the block's text.

#include "run_capture.hpp"

#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using mlsize::testing::run_cli;
namespace fs = std::filesystem;

namespace {

struct Pasted {
  std::string file;
  std::string command;
  std::string output;
};

std::vector<Pasted> pasted_blocks(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  std::vector<Pasted> blocks;
  std::size_t at = 0;
  while ((at = all.find("```", at)) != std::string::npos) {
    const std::size_t body = all.find('\n', at) + 1;
    const std::size_t end = all.find("```", body);
    if (body == 0 || end == std::string::npos) break;
    const std::string block = all.substr(body, end - body);
    at = end + 3;
    for (const char* prompt : {"$ mlsize ", "$ build/mlsize "}) {
      if (block.rfind(prompt, 0) != 0) continue;
      const std::size_t newline = block.find('\n');
      blocks.push_back({path.filename().string(), block.substr(std::string(prompt).size(), newline - std::string(prompt).size()),
                        block.substr(newline + 1)});
    }
  }
  return blocks;
}

}  // namespace

TEST_CASE("pasted outputs in README.md and docs/ come from the build", "[docs]") {
  const fs::path root = MLSIZE_SOURCE_DIR;
  std::vector<fs::path> files{root / "README.md"};
  for (const auto& entry : fs::directory_iterator(root / "docs")) {
    if (entry.path().extension() == ".md") files.push_back(entry.path());
  }
  // The developer's own overlays (catalog.d, MLSIZE_CATALOG) must not change the output.
  const fs::path empty = fs::temp_directory_path() / "mlsize-pasted-outputs-config";
  fs::create_directories(empty);
  ::setenv("XDG_CONFIG_HOME", empty.c_str(), 1);
  ::unsetenv("MLSIZE_CATALOG");
  // The pasted outputs were made on 2026-12-01: their prices' age is measured to that day.
  ::setenv("MLSIZE_TODAY", "2026-12-01", 1);
  // Paths in the commands (a recorded machine of tests/data) are the repository's.
  const fs::path before = fs::current_path();
  fs::current_path(root);
  std::size_t checked = 0;
  for (const fs::path& file : files) {
    for (const Pasted& block : pasted_blocks(file)) {
      std::vector<std::string> args;
      std::istringstream words(block.command);
      for (std::string word; words >> word;) args.push_back(word);
      // A block about a file only the docs show (docs/catalogue.md's bad.yaml) is text.
      if (block.command.find(".yaml") != std::string::npos) continue;
      INFO(block.file << ": $ mlsize " << block.command);
      const auto result = run_cli(args);
      CHECK(result.out + (result.exit_code != 0 ? result.err : "") == block.output);
      ++checked;
    }
  }
  fs::current_path(before);
  CHECK(checked >= 3);  // README's example, docs/cli.md's recommend and detect
}
