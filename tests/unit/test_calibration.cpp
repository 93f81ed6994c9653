// Calibration from real runs: reading nvidia-smi logs, PyTorch's JSON and overlays, and
// the arithmetic that turns a measured step into an MFU (docs/methodology.md#calibration).
// The figures are the H200 measurements of bench/results/h200-2026-11-29-scale.json.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/estimate/calibration.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/support/error.hpp>

#include <catch2/catch.hpp>

#include "workload_fixture.hpp"

#include <string>

using namespace mlsize;

namespace {

constexpr double k_mib = 1024.0 * 1024.0;

// llama-2-7b LoRA, checkpointing on, 4 × 2048 on one H200: 998.07 ms per step.
constexpr double k_step_s = 0.998069683;

std::string error_where(const auto& call) {
  try {
    call();
  } catch (const Error& error) {
    return error.where() + ": " + error.message();
  }
  return "no error";
}

}  // namespace

TEST_CASE("an nvidia-smi log gives each GPU's peak memory.used and its date", "[calibration]") {
  const std::string log =
      "timestamp, memory.used [MiB], utilization.gpu [%]\n"
      "2026/11/29 21:51:02.112, 560 MiB, 0 %\n"
      "2026/11/29 21:51:02.112, 360 MiB, 0 %\n"
      "2026/11/29 21:51:03.114, 130173 MiB, 100 %\n"
      "2026/11/29 21:51:03.114, 129973 MiB, 100 %\n"
      "2026/11/29 21:51:04.117, [N/A], 100 %\n"
      "2026/11/29 21:51:04.117, 78763 MiB, 12 %\n";
  const Measurement m = parse_measurement(log, "run.csv");
  CHECK(m.format == MeasurementFormat::nvidia_smi);
  CHECK(m.date == "2026-11-29");
  REQUIRE(m.devices == 2);
  CHECK(m.peak_used[0].value == 130173 * k_mib);
  CHECK(m.peak_used[1].value == 129973 * k_mib);
  CHECK(m.samples == 6);
}

TEST_CASE("an index column names the GPUs, nounits values read too", "[calibration]") {
  const std::string log =
      "timestamp, index, memory.used [MiB]\n"
      "2026/11/29 21:51:02.112, 1, 100\n"
      "2026/11/29 21:51:02.113, 0, 300\n"
      "2026/11/29 21:51:03.114, 1, 200\n";
  const Measurement m = parse_measurement(log, "run.csv");
  REQUIRE(m.gpus == std::vector<std::string>{"0", "1"});
  CHECK(m.peak_used[0].value == 300 * k_mib);
  CHECK(m.peak_used[1].value == 200 * k_mib);
}

TEST_CASE("bad logs are errors at their line and column", "[calibration]") {
  const std::string header = "timestamp, memory.used [MiB], utilization.gpu [%]\n";
  CHECK(error_where([&] { parse_measurement(header + "2026/11/29 21:51:02.112, lots MiB, 0 %\n", "a.csv"); }) ==
        "a.csv:2:26: not a memory.used figure: \"lots MiB\"");
  CHECK(error_where([&] { parse_measurement(header + "2026/11/29 21:51:02.112, 1 MiB\n", "a.csv"); }) ==
        "a.csv:2:1: this line has 2 fields, the header 3");
  CHECK(error_where([&] { parse_measurement(header + "yesterday, 1 MiB, 0 %\n", "a.csv"); }) ==
        "a.csv:2:1: not an nvidia-smi timestamp: \"yesterday\"");
  // A day that does not exist was written into an overlay no --calibration could load (issue 31).
  CHECK(error_where([&] { parse_measurement(header + "2026/13/45 21:51:02.112, 1 MiB, 0 %\n", "a.csv"); }) ==
        "a.csv:2:1: not an nvidia-smi timestamp: \"2026/13/45 21:51:02.112\"");
  CHECK(error_where([&] {
          parse_measurement(R"({"max_memory_allocated_bytes": 1, "date": "2026-02-30"})", "m.json");
        }).rfind("m.json:1:", 0) == 0);
  CHECK(error_where([&] { parse_measurement(header, "a.csv"); }).find("has no samples") != std::string::npos);
  CHECK(error_where([&] { parse_measurement("timestamp, utilization.gpu [%]\n", "a.csv"); }) ==
        "a.csv:1:1: the nvidia-smi log has no memory.used column");
  CHECK(error_where([&] { parse_measurement("hello", "a.txt"); }).find("not an nvidia-smi CSV log") !=
        std::string::npos);
}

// fuzz_calibrate's first finding: a field missing from the overlay (its version here) made
// yaml-cpp throw for the mark of a node that is not there, an "internal error".
TEST_CASE("a calibration overlay without its version is an error at the mapping", "[calibration]") {
  const std::string message = error_where([] {
    parse_calibration("device: h200-sxm\nprecision: bf16-mixed\nmfu: 0.5\nsource: x\nmeasured: 2026-11-29\n",
                      "c.yaml");
  });
  CHECK(message.rfind("c.yaml:1:1:", 0) == 0);
  CHECK(message.find("\"calibration\": is missing") != std::string::npos);
}

TEST_CASE("the measured JSON reads PyTorch's figures and refuses unknown keys", "[calibration]") {
  const Measurement m = parse_measurement(
      R"({"device": "h200-sxm", "devices": 1, "max_memory_allocated_bytes": 19385149440,
          "max_memory_reserved_bytes": 20000000000, "step_time_s": 0.998, "tokens_per_step": 8192,
          "date": "2026-11-29 21:51 UTC"})",
      "run.json");
  CHECK(m.device == "h200-sxm");
  CHECK(m.devices == 1);
  CHECK(m.max_allocated->value == 19385149440.0);
  CHECK(m.max_reserved->value == 20000000000.0);
  CHECK(m.date == "2026-11-29");
  CHECK(error_where([] { parse_measurement(R"({"step_time": 1})", "r.json"); }) ==
        "r.json:1:15: unknown key \"step_time\" in the measured JSON");
  CHECK(error_where([] { parse_measurement(R"({"step_time_s": -1})", "r.json"); }).find("must be a number") !=
        std::string::npos);
  CHECK(error_where([] {
          parse_measurement(R"({"max_memory_allocated_bytes": 2, "max_memory_reserved_bytes": 1})", "r.json");
        }).find("below max_memory_allocated_bytes") != std::string::npos);
}

TEST_CASE("calibrate then estimate reproduces the measured step time", "[calibration]") {
  const Catalog catalog = load_default_catalog();
  const Device* h200 = catalog.find_device("h200-sxm");
  REQUIRE(h200 != nullptr);
  Workload w = testing::workload_for_params(6.738e9, 8192);
  w.task = Task::lora;
  w.micro_batch = 4;
  w.setup_time = Seconds(0);
  Plan plan;
  plan.device = h200;
  plan.strategy.recompute = Recompute::full;
  Measurement measured;
  measured.step_time_s = k_step_s;
  measured.max_allocated = Bytes(19385149440.0);
  measured.devices = 1;
  measured.date = "2026-11-29";
  CHECK(step_tokens(w, plan, measured) == 4 * 2048);

  const PlanEstimate before = estimate_plan(w, plan, CostSettings{});
  const CalibrationComparison c = calibrate(w, before, measured);
  REQUIRE(c.throughput);
  REQUIRE(c.calibration.mfu);
  // The measured MFU is the FLOPs of the step over the peak and the step time.
  const double flops = training_flops(w.parameters.active, 8192, Recompute::full, Task::lora).value;
  CHECK(c.throughput->measured_efficiency == Approx(flops / (before.peak_flops_per_s * k_step_s)));
  // The overlay's MFU is the --mfu before the LoRA factor.
  CHECK(*c.calibration.mfu == Approx(c.throughput->measured_efficiency / k_lora_efficiency));
  // The allocated basis: the estimate less its overhead, the error moved into the overhead.
  REQUIRE(c.memory.size() == 1);
  CHECK(c.memory[0].estimated.value == Approx((before.memory.total() - before.memory.overhead).value));
  CHECK(c.calibration.overhead->value ==
        Approx(w.overhead.value + 19385149440.0 - c.memory[0].estimated.value));

  Workload calibrated = w;
  apply_calibration(calibrated, w, calibration_for(std::vector<Calibration>{c.calibration}, *h200, w.precision));
  CHECK(calibrated.mfu_pinned);
  const PlanEstimate after = estimate_plan(calibrated, plan, CostSettings{});
  CHECK(after.time.value == Approx(k_step_s).epsilon(1e-9));
  // The estimate less the default overhead (what max_memory_allocated sees) is the measured peak.
  CHECK((after.memory.total() - w.overhead).value == Approx(19385149440.0));
  // Another precision or device keeps the defaults.
  CHECK(calibration_for(std::vector<Calibration>{c.calibration}, *h200, Precision::fp32) == nullptr);
  Workload reset = calibrated;
  apply_calibration(reset, w, nullptr);
  CHECK(reset.mfu == w.mfu);
  CHECK(!reset.mfu_pinned);
  CHECK(reset.overhead == w.overhead);
}

TEST_CASE("a measurement of another device or count is refused", "[calibration]") {
  const Catalog catalog = load_default_catalog();
  Workload w = testing::workload_for_params(1e9, 2048);
  Plan plan;
  plan.device = catalog.find_device("h200-sxm");
  const PlanEstimate e = estimate_plan(w, plan, CostSettings{});
  Measurement m;
  m.step_time_s = 1;
  m.devices = 2;
  CHECK(error_where([&] { calibrate(w, e, m); }) == ": the measured run had 2 device(s), the plan 1");
  m.devices = 1;
  m.device = "a100-80gb-sxm";
  CHECK(error_where([&] { calibrate(w, e, m); }).find("was on \"a100-80gb-sxm\"") != std::string::npos);
}

TEST_CASE("an overlay reads back, bad ones are errors at file:line:column", "[calibration]") {
  const std::string good =
      "# comment\ncalibration: 1\ndevice: h200-sxm\nstack: cuda\nprecision: bf16-mixed\ntask: lora\n"
      "mfu: 0.402483\noverhead_bytes: 945827430\nsource: \"run.json\"\nmeasured: 2026-11-29\nmlsize: \"0.1.0\"\n";
  const Calibration c = parse_calibration(good, "h200.yaml");
  CHECK(c.device_id == "h200-sxm");
  CHECK(c.task == Task::lora);
  CHECK(*c.mfu == 0.402483);
  CHECK(c.overhead->value == 945827430.0);
  CHECK(c.file == "h200.yaml");
  CHECK(error_where([&] { parse_calibration(good + "mfuu: 1\n", "h.yaml"); }) ==
        "h.yaml:12:1: unknown field \"mfuu\" in the calibration overlay");
  std::string bad = good;
  bad.replace(bad.find("2026-11-29"), 10, "2026-13-01");
  CHECK(error_where([&] { parse_calibration(bad, "h.yaml"); }) == "h.yaml:10:11: field \"measured\": is not a date");
  CHECK(error_where([&] { parse_calibration("calibration: 2\n", "h.yaml"); }).find("not a version") !=
        std::string::npos);
  CHECK(error_where([&] {
          parse_calibration("calibration: 1\ndevice: x\nprecision: bf16-mixed\nsource: a\nmeasured: 2026-01-01\n",
                            "h.yaml");
        }).find("calibrates nothing") != std::string::npos);
}
