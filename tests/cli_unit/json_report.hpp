#pragma once
// A command's JSON report, for the model families' tests (vision, diffusion, speech).

#include "run_capture.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace mlsize::testing {

// The report of `args` with --format json; exit 3 (the plan does not fit) still writes it.
inline nlohmann::json json_of(const std::vector<std::string>& args) {
  std::vector<std::string> with_format = args;
  with_format.insert(with_format.end(), {"--format", "json"});
  const auto result = run_cli(with_format);
  INFO(result.err);
  REQUIRE((result.exit_code == 0 || result.exit_code == 3));
  return nlohmann::json::parse(result.out);
}

}  // namespace mlsize::testing
