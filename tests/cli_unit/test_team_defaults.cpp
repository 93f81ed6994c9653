// A team's defaults: the config file and MLSIZE_* variables set flags the user did not
// give; precedence flags > environment > file > built-in; shown in provenance.

#include "run_capture.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using mlsize::testing::run_cli;
namespace fs = std::filesystem;

namespace {

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : m_name(name) { ::setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { ::unsetenv(m_name); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* m_name;
};

// ctest runs the cases in parallel processes: each writes its own file.
std::string write_config(const std::string& name, const std::string& text) {
  const fs::path path = fs::temp_directory_path() / ("mlsize-test-config-" + name + ".yaml");
  std::ofstream(path) << text;
  return path.string();
}

const std::vector<std::string> k_json{"recommend", "--params", "7B", "--data", "200GB", "--format", "json"};
// The same as a table: its errors are text (under --format json they are a JSON object).
const std::vector<std::string> k_text{"recommend", "--params", "7B", "--data", "200GB"};

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("flags beat MLSIZE_* variables, which beat the config file", "[defaults]") {
  const std::string path = write_config("c2", "recommend:\n  top: 2\n  pricing: spot\n");
  const ScopedEnv config("MLSIZE_CONFIG", path);
  const auto from_file = run_cli(k_json);
  REQUIRE(from_file.exit_code == 0);
  CHECK(count_of(from_file.out, "\"pareto\": ") == 2);
  // Each default with where it came from: the file's path and line.
  CHECK(from_file.out.find("\"flag\": \"--top\"") != std::string::npos);
  CHECK(from_file.out.find("\"from\": \"" + path + ":2\"") != std::string::npos);
  CHECK(from_file.out.find("\"from\": \"" + path + ":3\"") != std::string::npos);
  {
    const ScopedEnv top("MLSIZE_TOP", "1");
    const auto from_env = run_cli(k_json);
    CHECK(count_of(from_env.out, "\"pareto\": ") == 1);
    CHECK(from_env.out.find("\"from\": \"MLSIZE_TOP\"") != std::string::npos);
    const auto from_flag = run_cli(with(k_json, {"--top", "3"}));
    CHECK(count_of(from_flag.out, "\"pareto\": ") == 3);
    CHECK(from_flag.out.find("--top") == std::string::npos);  // the flag, not a default
  }
  // --no-defaults: neither; the table names the defaults in force otherwise.
  const auto none = run_cli(with(k_json, {"--no-defaults"}));
  CHECK(count_of(none.out, "\"pareto\": ") == 10);
  CHECK(none.out.find("\"defaults\": []") != std::string::npos);
  const auto table = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--wide"});
  CHECK(table.out.find("Team defaults in force (--no-defaults ignores them): --top 2 (") != std::string::npos);
}

TEST_CASE("the defaults section applies to each command that has the flag", "[defaults]") {
  const ScopedEnv config("MLSIZE_CONFIG", write_config("c3", "defaults:\n  top: 1\n  memory-headroom: 0.2\n"));
  const auto recommend = run_cli(k_json);
  REQUIRE(recommend.exit_code == 0);
  CHECK(count_of(recommend.out, "\"pareto\": ") == 1);
  // estimate has no --top: the key is recommend's, not an error here.
  const auto estimate = run_cli({"estimate", "--params", "1B", "--device", "h100", "--format", "json"});
  CHECK(estimate.exit_code == 0);
  CHECK(estimate.out.find("\"memory_headroom\": 0.2") != std::string::npos);
}

TEST_CASE("a bad config file or variable is a clear error", "[defaults]") {
  SECTION("an unknown flag in a command's section: file:line:column and the nearest flag") {
    const std::string path = write_config("c4", "recommend:\n  top: 2\n  pricng: spot\n");
    const ScopedEnv config("MLSIZE_CONFIG", path);
    const auto result = run_cli(k_text);
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    CHECK(result.err.find(path + ":3:3") != std::string::npos);
    CHECK(result.err.find("did you mean \"pricing\"?") != std::string::npos);
    // Under --format json: the same place, as fields.
    const auto json = run_cli(k_json);
    CHECK(json.exit_code == 1);
    const nlohmann::json error = nlohmann::json::parse(json.err).at("error");
    CHECK(error["file"] == path);
    CHECK(error["line"] == 3);
    CHECK(error["column"] == 3);
  }
  SECTION("a flag twice in one section: both lines named, neither silently kept") {
    const std::string path = write_config("c9", "recommend:\n  top: 2\n  pricing: spot\n  top: 5\n");
    const ScopedEnv config("MLSIZE_CONFIG", path);
    const auto result = run_cli(k_text);
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    CHECK(result.err.find(path + ":4:3") != std::string::npos);
    CHECK(result.err.find("duplicate flag \"top\" in recommend (first at line 2)") != std::string::npos);
  }
  SECTION("an unknown section") {
    const ScopedEnv config("MLSIZE_CONFIG", write_config("c5", "recomend:\n  top: 2\n"));
    const auto result = run_cli(k_text);
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("did you mean \"recommend\"?") != std::string::npos);
  }
  SECTION("a bad value is checked as the flag's own") {
    const ScopedEnv config("MLSIZE_CONFIG", write_config("c6", "recommend:\n  pricing: cheap\n"));
    const auto result = run_cli(k_text);
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("--pricing: \"cheap\" is not one of") != std::string::npos);
    // The user never typed --pricing: the hint says where it came from.
    CHECK(result.err.find("--pricing was set by ") != std::string::npos);
  }
  SECTION("a flag without a value set to something else than true or false") {
    const ScopedEnv wide("MLSIZE_WIDE", "maybe");
    const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB"});
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("MLSIZE_WIDE=maybe") != std::string::npos);
  }
  SECTION("a named config file that does not exist") {
    const ScopedEnv config("MLSIZE_CONFIG", "/nonexistent/mlsize.yaml");
    const auto result = run_cli(k_text);
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("/nonexistent/mlsize.yaml") != std::string::npos);
  }
}

TEST_CASE("examples/config.yaml works from any directory: its files are found beside it", "[defaults]") {
  const ScopedEnv config("MLSIZE_CONFIG", std::string(MLSIZE_SOURCE_DIR) + "/examples/config.yaml");
  const auto result = run_cli(k_json);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find(std::string(MLSIZE_SOURCE_DIR) + "/examples/team-policy.yaml\"") != std::string::npos);
  CHECK(count_of(result.out, "\"pareto\": ") == 5);
}
