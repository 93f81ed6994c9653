#include "cli/io/output_file.hpp"
#include "cli/io/output_width.hpp"
#include "cli/render/text_table.hpp"
#include "run_capture.hpp"
#include "temp_files.hpp"

#include <mlsize/support/error.hpp>
#include <mlsize/support/utf8.hpp>

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

using mlsize::testing::fresh_directory;
using mlsize::testing::run_cli;
using mlsize::testing::slurp;
namespace fs = std::filesystem;

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

TEST_CASE("output: a report stdout cannot take is a write error, exit 1", "[output]") {
  // /dev/full takes nothing: ENOSPC on the flush (docs/cli.md#exit-status).
  std::FILE* full = std::fopen("/dev/full", "w");
  REQUIRE(full != nullptr);
  std::FILE* err = std::tmpfile();
  const char* argv[] = {"mlsize", "recommend", "--params", "7B", "--data", "200GB"};
  const int code = mlsize::cli::run(6, argv, full, err);
  std::fclose(full);
  CHECK(code == 1);
  CHECK(mlsize::testing::read_all(err) == "mlsize: error: write error: No space left on device\n");
  std::fclose(err);
}

TEST_CASE("output: a reader that closed the pipe early ends the run quietly", "[output]") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::close(fds[0]);  // the reader is gone before anything is written
  std::FILE* out = ::fdopen(fds[1], "w");
  REQUIRE(out != nullptr);
  std::FILE* err = std::tmpfile();
  const auto previous = std::signal(SIGPIPE, SIG_IGN);  // as main() does
  const char* argv[] = {"mlsize", "recommend", "--params", "7B", "--data", "200GB"};
  const int code = mlsize::cli::run(6, argv, out, err);
  std::signal(SIGPIPE, previous);
  std::fclose(out);
  CHECK(code == 0);
  CHECK(mlsize::testing::read_all(err).empty());
  std::fclose(err);
}

TEST_CASE("output: --output - is stdout", "[output]") {
  const auto to_stdout = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--output", "-"});
  const auto plain = run_cli({"recommend", "--params", "7B", "--data", "200GB"});
  CHECK(to_stdout.exit_code == 0);
  CHECK(to_stdout.out == plain.out);
  CHECK_FALSE(fs::exists("-"));
}

TEST_CASE("the main job's table fits 80 columns and ends with a runnable next: command", "[output]") {
  // Not a terminal here, and no COLUMNS: 80 columns (docs/cli.md#width).
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB"});
  REQUIRE(result.exit_code == 0);
  std::istringstream lines(result.out);
  std::string last_start;
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK(mlsize::display_width(line) <= 80);
    if (line.rfind("next: ", 0) == 0) last_start = line;
  }
  CHECK(last_start.rfind("next: mlsize estimate --params 7B --data 200GB --offering ", 0) == 0);
  // --wide keeps the names and the long lines.
  const auto wide = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--wide"});
  CHECK(wide.out.find("NVIDIA H100 SXM5 80GB · cudo sapphire-rapids-h100_4x32v64gb") != std::string::npos);
}

TEST_CASE("table columns line up past CJK and emoji, which take two columns", "[output]") {
  CHECK(mlsize::display_width("H100") == 4);
  CHECK(mlsize::display_width("昇腾 910B") == 9);  // two wide, a space, four narrow
  CHECK(mlsize::display_width("GPU 🚀") == 6);
  CHECK(mlsize::display_width("é") == 1);
  const std::string table = mlsize::cli::render_text_table(
      {{"name"}, {"memory", true}}, {{"昇腾 910B", "64"}, {"NVIDIA H100", "80"}, {"🚀 box", "24"}});
  std::istringstream lines(table);
  std::vector<std::size_t> widths;
  for (std::string line; std::getline(lines, line);) widths.push_back(mlsize::display_width(line));
  REQUIRE(widths.size() == 4);
  for (std::size_t width : widths) CHECK(width == widths.front());
}

TEST_CASE("serving, batch-inference and purchase tables fit 80 columns too", "[output]") {
  const std::vector<std::vector<std::string>> commands{
      {"recommend", "--model", "llama-3-70b", "--task", "inference", "--rate", "20", "--tpot", "50ms"},
      {"recommend", "--model", "llama-3-8b", "--task", "inference", "--tokens", "100M", "--prompt-tokens", "500",
       "--output-tokens", "100"},
      {"recommend", "--params", "7B", "--data", "200GB", "--include-purchase"},
      {"recommend", "--params", "70B", "--tokens", "1T", "--include-purchase"},
      {"recommend", "--task", "gbdt", "--data", "20GB", "--include-purchase"}};
  for (const auto& command : commands) {
    const auto result = run_cli(command);
    REQUIRE(result.exit_code == 0);
    std::istringstream lines(result.out);
    for (std::string line; std::getline(lines, line);) {
      INFO(line);
      CHECK(mlsize::display_width(line) <= 80);
    }
  }
}

TEST_CASE("the width is the terminal's, else COLUMNS, else the default", "[output]") {
  using mlsize::cli::choose_output_width;
  CHECK(choose_output_width(120, "100", 80) == 120);  // a terminal says how wide it is now
  CHECK(choose_output_width(std::nullopt, "100", 80) == 100);
  CHECK(choose_output_width(std::nullopt, std::nullopt, 80) == 80);
  CHECK(choose_output_width(std::nullopt, "wide", 80) == 80);  // not a number: ignored
  CHECK(choose_output_width(std::nullopt, "100x", 80) == 80);
  CHECK(choose_output_width(std::nullopt, "", 80) == 80);
  CHECK(choose_output_width(std::nullopt, "10", 80) == mlsize::cli::k_min_width);
  CHECK(choose_output_width(0, "90", 80) == 90);  // a terminal that reports no width
}

TEST_CASE("a table too wide leaves out columns by priority and says so, and --wide keeps them", "[output]") {
  using mlsize::cli::TableColumn;
  const std::vector<TableColumn> columns{{"id"}, {"price", true, 1}, {"note", false, 2}, {"time", true}};
  const std::vector<std::vector<std::string>> rows{{"h100-sxm · cudo", "$15.32", "a long note here", "7.7 d"}};
  // 15 + 6 + 16 + 5 + 3 gaps of 2 = 48 columns.
  CHECK(mlsize::cli::render_table(columns, rows, {48}).find("(") == std::string::npos);
  const std::string narrow = mlsize::cli::render_table(columns, rows, {40});
  CHECK(narrow.find("a long note") == std::string::npos);  // the highest drop goes first
  CHECK(narrow.find("$15.32") != std::string::npos);
  CHECK(narrow.find("(note left out to fit 40 columns: --wide shows it)") != std::string::npos);
  const std::string narrower = mlsize::cli::render_table(columns, rows, {20});
  CHECK(narrower.find("(note and price left out to fit 20 columns: --wide shows them)") != std::string::npos);
  CHECK(narrower.find("h100-sxm · cudo  7.7 d") != std::string::npos);  // never-dropped columns stay, row whole
  const std::string wide = mlsize::cli::render_table(columns, rows, {20, true});
  CHECK(wide.find("a long note here") != std::string::npos);
  // A last column that wraps goes on lines under itself, not past the width.
  const std::string wrapped = mlsize::cli::render_table({{"term"}, {"formula", false, 0, true}},
                                                        {{"weights", "N × 2 / (t·p) [/ dp at ZeRO-3] + gathers"}}, {30});
  std::istringstream lines(wrapped);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK(mlsize::display_width(line) <= 30);
  }
  CHECK(wrapped.find("weights  N × 2 / (t·p) [/ dp\n         at ZeRO-3] + gathers\n") != std::string::npos);
}

TEST_CASE("output: -o works on every command that prints a report, and refuses the run's own catalogue", "[output]") {
  const fs::path dir = fresh_directory("mlsize-output-short");
  const fs::path exported = dir / "catalog.yaml";
  const auto written = run_cli({"catalog", "export", "-o", exported.string()});
  REQUIRE(written.exit_code == 0);
  CHECK(written.out.empty());
  CHECK(slurp(exported) == run_cli({"catalog", "export"}).out);
  const fs::path listed = dir / "gpus.txt";
  CHECK(run_cli({"catalog", "list", "--kind", "tpu", "-o", listed.string()}).exit_code == 0);
  CHECK(slurp(listed).find("tpu-v5e") != std::string::npos);
  // Exporting over the overlay the run reads would lose it: refused, the overlay kept.
  const fs::path overlay = dir / "mine.yaml";
  std::ofstream(overlay) << "offerings: []\n";
  const auto over = run_cli({"catalog", "export", "--catalog", overlay.string(), "-o", overlay.string()});
  CHECK(over.exit_code == 1);
  CHECK(slurp(overlay) == "offerings: []\n");
  const fs::path report = dir / "report.json";
  CHECK(run_cli({"recommend", "--params", "7B", "--data", "200GB", "--format", "json", "-o", report.string()})
            .exit_code == 0);
  CHECK(slurp(report).front() == '{');
}

TEST_CASE("output: --quiet drops the notes of a run that succeeds, never its errors or its report", "[output]") {
  const std::vector<std::string> two_cards{"estimate", "--model",   "llama-3-70b", "--task", "inference",
                                           "--quant",  "int4",      "--gpus",      "rtx-4090:2"};
  const auto noisy = run_cli(two_cards);
  REQUIRE(noisy.exit_code == 0);
  REQUIRE(noisy.err.find("note:") != std::string::npos);
  std::vector<std::string> quiet = two_cards;
  quiet.push_back("-q");
  const auto silent = run_cli(quiet);
  CHECK(silent.exit_code == 0);
  CHECK(silent.err.empty());
  CHECK(silent.out == noisy.out);
  // An error still prints.
  const auto failed = run_cli({"recommend", "--params", "0", "--quiet"});
  CHECK(failed.exit_code == 2);
  CHECK(failed.err.find("--params") != std::string::npos);
  // A checker says nothing; its exit status is the answer.
  const fs::path dir = fresh_directory("mlsize-quiet-check");
  const fs::path rules = dir / "rules.yaml";
  std::ofstream(rules) << "rules: []\n";
  const auto checked = run_cli({"rules", "check", "--quiet", rules.string()});
  CHECK(checked.exit_code == 0);
  CHECK(checked.out.empty());
  CHECK(checked.err.empty());
}
