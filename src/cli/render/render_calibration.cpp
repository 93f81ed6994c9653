#include "cli/render/render_calibration.hpp"

#include "cli/render/format.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/support/number_format.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <vector>

namespace mlsize::cli {
namespace {

// (estimated − measured) / measured, as the bench reports write it: "+4.0%".
std::string error_percent(double estimated, double measured) {
  if (measured <= 0) return "-";
  const double percent = (estimated - measured) / measured * 100;
  std::string text = percent >= 0 ? "+" : "-";
  text += format_fixed(std::abs(percent), 1);
  text += '%';
  return text;
}

// What each measured figure is compared with (docs/methodology.md#calibration).
std::string measured_name(MemoryBasis basis) {
  switch (basis) {
    case MemoryBasis::allocated: return "max_memory_allocated";
    case MemoryBasis::reserved: return "max_memory_reserved";
    case MemoryBasis::used: return "nvidia-smi memory.used";
  }
  return {};
}

std::string estimate_terms(MemoryBasis basis, const CalibrationComparison& c) {
  switch (basis) {
    case MemoryBasis::allocated: return "peak per device; estimate less its overhead";
    case MemoryBasis::reserved: return "peak per device; estimate with its overhead";
    case MemoryBasis::used: return "peak per device; estimate + CUDA context " + format_bytes(c.context);
  }
  return {};
}

std::string efficiency(double value) {
  return value > 0 ? format_fixed(value, 3) : std::string("-");
}

}  // namespace

std::string render_calibration_table(const CalibrationComparison& c, const Workload& workload, int devices,
                                     std::size_t width) {
  const Calibration& calibration = c.calibration;
  std::string text = "Calibration of " + std::to_string(devices) + " × " + calibration.device_id + " (" +
                     calibration.stack + ", " + std::string(to_string(calibration.precision)) + ", " +
                     std::string(to_string(calibration.task)) + ") from " + calibration.source + ", measured " +
                     calibration.measured + "\n";
  text = wrap_prose(text, width) + "\n";
  std::vector<std::vector<std::string>> rows;
  for (const MemoryComparison& m : c.memory) {
    rows.push_back({measured_name(m.basis), format_bytes(m.measured), format_bytes(m.estimated),
                    error_percent(m.estimated.value, m.measured.value), estimate_terms(m.basis, c)});
  }
  if (c.throughput) {
    const ThroughputComparison& t = *c.throughput;
    const bool decode = workload.task == Task::inference;
    rows.push_back(
        {decode ? "decode step" : "step time", format_latency(Seconds(t.measured_step_s)),
         t.estimated_step_s > 0 ? format_latency(Seconds(t.estimated_step_s)) : "-",
         error_percent(t.estimated_step_s, t.measured_step_s),
         decode ? "weights + KV cache read at the bandwidth efficiency"
                : format_count_exact_below_10k(t.tokens_per_step) + " tokens: compute + exposed communication"});
    rows.push_back(
        {"tokens/s", format_count_exact_below_10k(std::round(t.tokens_per_step / t.measured_step_s)),
         t.estimated_step_s > 0 ? format_count_exact_below_10k(std::round(t.tokens_per_step / t.estimated_step_s))
                                : "-",
         error_percent(t.tokens_per_step / std::max(t.estimated_step_s, 1e-300), t.tokens_per_step / t.measured_step_s),
         "over all devices"});
    rows.push_back({decode ? "bandwidth efficiency" : "MFU", efficiency(t.measured_efficiency),
                    efficiency(t.estimated_efficiency), "-",
                    decode ? "of the datasheet memory bandwidth" : "FLOPs per step ÷ (devices × peak × step)"});
  }
  // Within the terminal's width (docs/cli.md#width): the last column's prose wraps under it.
  TableStyle style;
  style.width = width;
  text += render_table(
      {{"term"}, {"measured", true}, {"estimated", true}, {"error", true}, {"estimate terms", false, 0, true}}, rows,
      style);
  text += "\nThe overlay sets:";
  bool any = false;
  if (calibration.mfu) {
    text += "\n  mfu " + format_general(*calibration.mfu, 4) + " (was " + format_general(workload.mfu, 4) +
            (workload.mfu_pinned ? ", --mfu" : ", before the stack and task factors") + ")";
    any = true;
  }
  if (calibration.bandwidth_efficiency) {
    text += "\n  bandwidth_efficiency " + format_general(*calibration.bandwidth_efficiency, 4) + " (was " +
            format_general(workload.bandwidth_efficiency, 4) + ")";
    any = true;
  }
  if (calibration.overhead) {
    text += "\n  overhead " + format_bytes(*calibration.overhead) + " per device (was " +
            format_bytes(workload.overhead) + ")";
    any = true;
  }
  if (!any) text += " nothing";
  text += "\n";
  for (const std::string& note : c.notes) text += "Note: " + note + ".\n";
  return text;
}

std::string render_calibration_overlay(const CalibrationComparison& comparison, const std::string& table) {
  const Calibration& c = comparison.calibration;
  std::string text =
      "# mlsize calibration overlay: estimate and recommend read it with --calibration FILE\n"
      "# (docs/cli.md#calibrate). What the run measured against the estimate:\n#\n";
  std::size_t start = 0;
  while (start < table.size()) {
    const std::size_t end = table.find('\n', start);
    const std::string line = table.substr(start, end - start);
    text += line.empty() ? "#\n" : "# " + line + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  // JSON strings are YAML double-quoted scalars: any file name reads back as written.
  const auto quoted = [](const std::string& value) { return nlohmann::json(value).dump(); };
  text += "calibration: " + std::to_string(k_calibration_version) + "\n";
  text += "device: " + c.device_id + "\n";
  text += "stack: " + c.stack + "\n";
  text += "precision: " + std::string(to_string(c.precision)) + "\n";
  text += "task: " + std::string(to_string(c.task)) + "\n";
  // Six significant digits: the step time reads back within rounding.
  if (c.mfu) text += "mfu: " + format_general(*c.mfu, 6) + "\n";
  if (c.bandwidth_efficiency) text += "bandwidth_efficiency: " + format_general(*c.bandwidth_efficiency, 6) + "\n";
  if (c.overhead) text += "overhead_bytes: " + format_fixed(c.overhead->value, 0) + "\n";
  text += "source: " + quoted(c.source) + "\n";
  text += "measured: " + c.measured + "\n";
  text += "mlsize: " + quoted(c.mlsize_version) + "\n";
  return text;
}

}  // namespace mlsize::cli
