#include "cli/io/output_file.hpp"
#include "run_capture.hpp"

#include <mlsize/support/error.hpp>

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

using mlsize::testing::run_cli;
namespace fs = std::filesystem;

namespace {

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

TEST_CASE("the same inputs give byte-identical output", "[determinism]") {
  const auto first = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--format", "json"});
  const auto second = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--format", "json"});
  CHECK(first.exit_code == 0);
  CHECK(first.out == second.out);
  CHECK(first.out.size() > 1000);
}

TEST_CASE("output: --output writes the whole report to the file and nothing to stdout", "[output]") {
  const fs::path dir = fresh_directory("mlsize-output-test");
  const fs::path report = dir / "report.json";
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--format", "json", "--output",
                               report.string()});
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  const auto direct = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--format", "json"});
  CHECK(slurp(report) == direct.out);
  // Only the report is left: no temporary file next to it.
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}

TEST_CASE("output: --output leaves no file, partial or temporary, when the command fails", "[output]") {
  const fs::path dir = fresh_directory("mlsize-output-fail");
  const fs::path report = dir / "report.json";
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--budget", "20kk", "--output",
                               report.string()});
  CHECK(result.exit_code == 2);
  CHECK(result.out.empty());
  CHECK(fs::is_empty(dir));
}

TEST_CASE("output: --output into a missing directory is an input error naming the path", "[output]") {
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--output",
                               "/nonexistent-dir/report.txt"});
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err.rfind("mlsize: error: /nonexistent-dir/report.txt: cannot write the output: ", 0) == 0);
}

TEST_CASE("write_file_atomically replaces an existing file whole", "[output]") {
  const fs::path dir = fresh_directory("mlsize-atomic");
  const fs::path file = dir / "out.txt";
  std::ofstream(file) << "old content that is longer than the new one";
  mlsize::cli::write_file_atomically(file.string(), "new");
  CHECK(slurp(file) == "new");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}
