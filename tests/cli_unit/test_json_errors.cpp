// Errors under --format json (issue 51; docs/cli.md#errors-under---format-json): one JSON
// object on stderr with a stable code, stdout empty, the exit status unchanged.
#include "run_capture.hpp"
#include "temp_files.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

using mlsize::testing::run_cli;

TEST_CASE("a bad flag value under --format json is a JSON error naming the flag", "[json_errors]") {
  const auto result = run_cli({"recommend", "--params", "0", "--format", "json"});
  CHECK(result.exit_code == 2);
  CHECK(result.out.empty());
  const nlohmann::json error = nlohmann::json::parse(result.err).at("error");
  CHECK(error["code"] == "usage");
  CHECK(error["exit_code"] == 2);
  CHECK(error["flag"] == "--params");
  CHECK(error["file"].is_null());
  CHECK(error["hint"].get<std::string>().find("7B") != std::string::npos);
  // The same failure as text is unchanged.
  const auto text = run_cli({"recommend", "--params", "0"});
  CHECK(text.exit_code == 2);
  CHECK(text.err.rfind("mlsize: error: --params: ", 0) == 0);
}

TEST_CASE("a parse error and a bad file under --format json are JSON errors", "[json_errors]") {
  const auto unknown = run_cli({"estimate", "--params", "7B", "--format=json", "--bogus"});
  CHECK(unknown.exit_code == 2);
  CHECK(nlohmann::json::parse(unknown.err)["error"]["code"] == "usage");

  const std::string path = (mlsize::testing::fresh_directory("mlsize-test-json-errors") / "bad.yaml").string();
  std::ofstream(path) << "devices:\n  - id: [\n";
  const auto bad = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--catalog", path, "--format", "json"});
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.empty());
  const nlohmann::json error = nlohmann::json::parse(bad.err).at("error");
  CHECK(error["code"] == "input");
  CHECK(error["file"].get<std::string>().find("bad.yaml") != std::string::npos);
  CHECK(error["line"].get<int>() >= 1);
}

TEST_CASE("hostile text in a JSON error stays one valid JSON line", "[json_errors]") {
  // A value with a line feed, an escape and bytes that are not UTF-8.
  const auto result = run_cli({"recommend", "--params", "7\n\x1b[2J\xff\xfe", "--format", "json"});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find('\n') == result.err.size() - 1);
  const nlohmann::json document = nlohmann::json::parse(result.err);
  CHECK(document["schema_version"] == 1);
  CHECK(document["error"]["message"].get<std::string>().find('\x1b') != std::string::npos);
}
