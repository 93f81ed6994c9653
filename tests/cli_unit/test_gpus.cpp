#include "cli/options/hardware_filter.hpp"
#include "run_capture.hpp"

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/support/error.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using mlsize::testing::run_cli;

TEST_CASE("recommend --gpus h100:8: every recommendation is 8 H100s", "[gpus]") {
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--gpus", "h100:8", "--top", "1000",
                               "--format", "json"});
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.empty());
  const nlohmann::json report = nlohmann::json::parse(result.out);
  REQUIRE_FALSE(report["recommendations"].empty());
  for (const nlohmann::json& plan : report["recommendations"]) {
    INFO(plan["offering"]["id"]);
    CHECK(plan["device"]["id"] == "h100-sxm");
    CHECK(plan["device_count"] == 8);
  }
  // The H100 offerings that cannot make 8 say so; no other device is looked at.
  for (const nlohmann::json& rejection : report["rejected"]) {
    CHECK(rejection["device"]["id"] == "h100-sxm");
    if (rejection["reason"] == "device_count") CHECK(rejection["device_counts"] == nlohmann::json::array({8}));
  }
}

TEST_CASE("recommend --gpus with several devices and counts keeps each device at its own counts", "[gpus]") {
  const auto result = run_cli({"recommend", "--params", "7B", "--data", "200GB", "--gpus", "a100-80gb:8,h100:16",
                               "--gpus", "H100:8", "--top", "1000", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const nlohmann::json report = nlohmann::json::parse(result.out);
  REQUIRE_FALSE(report["recommendations"].empty());
  for (const nlohmann::json& plan : report["recommendations"]) {
    INFO(plan["offering"]["id"]);
    const int count = plan["device_count"];
    if (plan["device"]["id"] == "h100-sxm") {
      CHECK((count == 8 || count == 16));
    } else {
      CHECK(plan["device"]["id"] == "a100-80gb-sxm");
      CHECK(count == 8);
    }
  }
}

TEST_CASE("a --gpus entry is ACC or ACC:N with N from 1, anything else names the flag", "[gpus]") {
  const mlsize::Catalog catalog = mlsize::load_default_catalog();
  const mlsize::cli::GpuRequest bare = mlsize::cli::parse_gpu_request(catalog, "--gpus", "H100");
  CHECK(bare.device->id == "h100-sxm");
  CHECK_FALSE(bare.count);
  CHECK(mlsize::cli::parse_gpu_request(catalog, "--gpus", "a100-80gb:4").count == 4);
  for (const char* bad : {"h100:0", "h100:x", "h100:", ":8", "h100:8:8", "h100:-8", "h100:1000001", "h10:8"}) {
    INFO(bad);
    try {
      mlsize::cli::parse_gpu_request(catalog, "--gpus", bad);
      FAIL("accepted");
    } catch (const mlsize::Error& error) {
      CHECK(error.kind() == mlsize::ErrorKind::usage);
      CHECK(error.where() == "--gpus");
    }
  }
}

TEST_CASE("estimate --gpus with a count serves a model split over them when one device cannot hold it", "[gpus]") {
  // Issue 51: Llama-3-70B in 4 bits is 38.7 GB, an RTX 4090 24 GB; two hold it with TP 2, as
  // vLLM's --tensor-parallel-size 2 does. The layout is searched, the smallest that fits.
  const auto split = run_cli({"estimate", "--model", "llama-3-70b", "--task", "inference", "--quant", "int4",
                              "--gpus", "rtx-4090:2", "--format", "json"});
  REQUIRE(split.exit_code == 0);
  const nlohmann::json report = nlohmann::json::parse(split.out);
  CHECK(report["memory"]["fits"] == true);
  CHECK(report["strategy"]["tensor_parallel"] == 2);
  CHECK(split.err.find("TP 2") != std::string::npos);
  // A model one device holds stays unsplit: two replicas serve more than one TP pair.
  const auto small = run_cli({"estimate", "--model", "llama-3-8b", "--task", "inference", "--gpus", "rtx-4090:2",
                              "--format", "json"});
  REQUIRE(small.exit_code == 0);
  CHECK(nlohmann::json::parse(small.out)["strategy"]["tensor_parallel"] == 1);
  // --tp is the user's: it is kept, and the plan reported as it is.
  const auto pinned = run_cli({"estimate", "--model", "llama-3-70b", "--task", "inference", "--quant", "int4",
                               "--gpus", "rtx-4090:2", "--tp", "1", "--format", "json"});
  CHECK(pinned.exit_code == 3);
  CHECK(nlohmann::json::parse(pinned.out)["strategy"]["tensor_parallel"] == 1);
  // One device: the way out is the second one with TP 2, not more hardware than that.
  const auto one = run_cli({"estimate", "--model", "llama-3-70b", "--task", "inference", "--quant", "int4", "--gpus",
                            "rtx-4090:1"});
  CHECK(one.exit_code == 3);
  CHECK(one.out.find("--count 2 --tp 2") != std::string::npos);
  CHECK(one.out.find("--count 4") == std::string::npos);
}
