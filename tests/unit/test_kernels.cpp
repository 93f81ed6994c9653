// Kernels by device generation (src/core/estimate/kernels.cpp, docs/methodology.md#kernels):
// vLLM's table of quantisation kernels by hardware (docs.vllm.ai, features/quantization/
// supported_hardware), against the catalogue's compute capabilities (developer.nvidia.com/cuda-gpus).

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/kernels.hpp>

#include <catch2/catch.hpp>

namespace mlsize {
namespace {

const Device& device(const char* id) {
  static const Catalog catalog = load_default_catalog();
  const Device* found = catalog.find_device(id);
  REQUIRE(found != nullptr);
  return *found;
}

bool runs(WeightFormat format, const char* id) { return !missing_weight_kernel(Engine::vllm, format, device(id)); }

TEST_CASE("kernels: vLLM's AWQ needs Turing, GPTQ and bitsandbytes Volta, FP8 and MXFP4 Ampere", "[kernels]") {
  using enum WeightFormat;
  CHECK_FALSE(runs(awq, "v100-sxm2-16gb"));
  CHECK(runs(awq, "t4"));
  CHECK(runs(awq, "a100-80gb-sxm"));
  CHECK(runs(gptq, "v100-sxm2-16gb"));
  CHECK(runs(int4, "v100-sxm2-16gb"));
  CHECK(runs(nf4, "v100-sxm2-16gb"));
  CHECK_FALSE(runs(fp8, "t4"));
  CHECK(runs(fp8, "a100-80gb-sxm"));  // Marlin's weight-only FP8
  CHECK(runs(fp8, "h100-sxm"));
  CHECK_FALSE(runs(mxfp4, "t4"));
  CHECK(runs(mxfp4, "a10g"));
  CHECK(runs(bf16, "v100-sxm2-16gb"));  // 16-bit weights need no quantisation kernel
}

TEST_CASE("kernels: other runtimes have the table's columns", "[kernels]") {
  using enum WeightFormat;
  CHECK_FALSE(runs(awq, "mi300x"));  // AMD GPU: AWQ ❌
  CHECK(runs(fp8, "mi300x"));        // FP8 W8A8 ✅
  CHECK_FALSE(runs(gptq, "tpu-v5e"));
  CHECK_FALSE(runs(awq, "inferentia2"));
  CHECK(runs(fp8, "inferentia2"));
  // Other engines keep their own refusals (engine_runs_on): none is added here.
  CHECK_FALSE(missing_weight_kernel(Engine::llamacpp, awq, device("v100-sxm2-16gb")));
}

TEST_CASE("kernels: the refusal names the kernel, the device's generation and the source", "[kernels]") {
  const std::optional<std::string> why = missing_weight_kernel(Engine::vllm, WeightFormat::awq, device("v100-sxm2-16gb"));
  REQUIRE(why);
  CHECK(why->find("compute capability 7.0 (Volta)") != std::string::npos);
  CHECK(why->find("AWQ needs 7.5 (Turing) or later") != std::string::npos);
  CHECK(why->find("supported_hardware") != std::string::npos);
}

TEST_CASE("kernels: Marlin from Ampere, an overlay device placed by its peaks", "[kernels]") {
  CHECK_FALSE(runs_marlin(device("t4")));
  CHECK(runs_marlin(device("a10g")));
  CHECK_FALSE(runs_marlin(device("mi300x")));
  Device unstated = device("l4");
  unstated.compute_capability.reset();
  CHECK(compute_capability(unstated) == 89);  // an fp8 peak: Ada or later
  unstated.peak_flops_per_s[static_cast<std::size_t>(DType::fp8)].reset();
  CHECK(compute_capability(unstated) == 80);  // bf16 only: Ampere
  CHECK(compute_capability_text(103) == "10.3");
  CHECK(nvidia_generation(120) == "Blackwell");
}

}  // namespace
}  // namespace mlsize
