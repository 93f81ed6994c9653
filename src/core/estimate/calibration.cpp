#include <mlsize/estimate/calibration.hpp>

#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/engine.hpp>
#include <mlsize/support/date.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/number_format.hpp>

#include "core/model/config_reader.hpp"
#include "core/support/yaml_documents.hpp"

#include <array>
#include <cmath>

namespace mlsize {
namespace {

// The overlay's text, locating yaml-cpp's marks by their byte offset.
class OverlaySource {
 public:
  OverlaySource(std::string_view text, const std::string& name) : m_text(text, name) {}

  [[noreturn]] void fail(const YAML::Mark& mark, std::string message, std::string hint = {}) const {
    SourceLocation where =
        mark.pos < 0 ? SourceLocation{m_text.name(), 0, 0, {}} : m_text.at_offset(static_cast<std::size_t>(mark.pos));
    m_text.fail(std::move(where), std::move(message), std::move(hint));
  }

 private:
  ConfigText m_text;
};

constexpr std::array<std::string_view, 11> k_fields{
    "calibration",          "device",         "stack",  "precision", "task",  "mfu",
    "bandwidth_efficiency", "overhead_bytes", "source", "measured",  "mlsize"};

class OverlayFields {
 public:
  OverlayFields(const OverlaySource& source, const YAML::Node& root)
      : m_source(source), m_root(root), m_marks(checked_keys_in(source, root, "the calibration overlay", k_fields)) {}

  bool has(std::string_view key) const { return m_marks.contains(key); }

  std::string text(std::string_view key, bool required = true) const {
    if (!has(key)) {
      if (required) m_source.fail(m_root.Mark(), "the calibration overlay lacks the field " + in_quotes(key));
      return {};
    }
    const YAML::Node value = m_root[std::string(key)];
    if (!value.IsScalar() || value.Scalar().empty()) fail_value(key, "must be a non-empty text", "a text value");
    return value.Scalar();
  }

  template <class E>
  E choice(std::string_view key) const {
    const std::string value = text(key);
    const std::optional<E> parsed = parse_name<E>(value);
    if (!parsed) fail_value(key, in_quotes(value) + " is not accepted", "one of " + join_names(names<E>()));
    return *parsed;
  }

  std::optional<double> number(std::string_view key, double low, double high, std::string_view accepted) const {
    if (!has(key)) return std::nullopt;
    const std::string value = text(key);
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (end != value.c_str() + value.size() || !std::isfinite(number) || number < low || number > high) {
      fail_value(key, in_quotes(value) + " is out of range or not a number", accepted);
    }
    return number;
  }

  // At the field, or at the mapping where it is missing (yaml-cpp throws for the mark of a
  // key that is not there: fuzz_calibrate's first finding).
  [[noreturn]] void fail_value(std::string_view key, const std::string& problem, std::string_view accepted) const {
    const YAML::Mark mark = has(key) ? m_root[std::string(key)].Mark() : m_root.Mark();
    m_source.fail(mark, "field " + in_quotes(key) + ": " + problem, std::string(accepted));
  }

 private:
  const OverlaySource& m_source;
  const YAML::Node& m_root;
  std::map<std::string, YAML::Mark, std::less<>> m_marks;
};

}  // namespace

Calibration parse_calibration(std::string_view text, const std::string& name) {
  const OverlaySource source(text, name);
  const YAML::Node root = load_one_document(
      text, "calibration", "an overlay is one flat mapping", "a mapping written by mlsize calibrate",
      [&](const YAML::Mark& mark, std::string message, std::string hint) { source.fail(mark, message, hint); });
  const OverlayFields fields(source, root);
  const std::optional<double> version = fields.number("calibration", 1, 1e9, "");
  if (version != k_calibration_version) {
    fields.fail_value("calibration", version ? "is not a version this mlsize reads" : "is missing",
                      "calibration: " + std::to_string(k_calibration_version) + " (mlsize calibrate writes it)");
  }
  Calibration c;
  c.file = name;
  c.device_id = fields.text("device");
  c.stack = fields.text("stack", false);
  c.precision = fields.choice<Precision>("precision");
  if (fields.has("task")) c.task = fields.choice<Task>("task");
  c.mfu = fields.number("mfu", 1e-6, 1, "a fraction above 0 and at most 1");
  c.bandwidth_efficiency = fields.number("bandwidth_efficiency", 1e-6, 1, "a fraction above 0 and at most 1");
  if (const std::optional<double> bytes = fields.number("overhead_bytes", 0, 1e15, "bytes per device, 0 or more")) {
    c.overhead = Bytes(*bytes);
  }
  c.source = fields.text("source");
  c.measured = fields.text("measured");
  if (!is_iso_date(c.measured)) fields.fail_value("measured", "is not a date", "a date written YYYY-MM-DD");
  c.mlsize_version = fields.text("mlsize", false);
  if (!c.mfu && !c.bandwidth_efficiency && !c.overhead) {
    source.fail(root.Mark(), "the calibration overlay calibrates nothing",
                "give mfu, bandwidth_efficiency or overhead_bytes (mlsize calibrate writes them)");
  }
  return c;
}

const Calibration* calibration_for(std::span<const Calibration> calibrations, const Device& device,
                                   Precision precision) {
  const Calibration* found = nullptr;
  for (const Calibration& c : calibrations) {
    if (c.precision == precision && device.id == c.device_id) found = &c;
  }
  return found;
}

bool apply_calibration(Workload& workload, const Workload& base, const Calibration* found) {
  const Bytes overhead = workload.overhead;
  workload.mfu = base.mfu;
  workload.mfu_pinned = base.mfu_pinned;
  workload.bandwidth_efficiency = base.bandwidth_efficiency;
  workload.overhead = base.overhead;
  if (found != nullptr) {
    const Calibration& calibration = *found;
    if (calibration.mfu) {
      workload.mfu = *calibration.mfu;
      workload.mfu_pinned = true;
    }
    if (calibration.bandwidth_efficiency) workload.bandwidth_efficiency = *calibration.bandwidth_efficiency;
    if (calibration.overhead) workload.overhead = *calibration.overhead;
  }
  return workload.overhead != overhead;
}

double step_tokens(const Workload& workload, const Plan& plan, const Measurement& measured) {
  if (measured.tokens_per_step) return *measured.tokens_per_step;
  if (workload.task == Task::inference) return workload.batch;
  return static_cast<double>(workload.micro_batch) * workload.sequence_length *
         plan.strategy.data_parallel(plan.device_count);
}

namespace {

// The run's per-device memory compared as each of its figures allows (docs/methodology.md#calibration).
void compare_memory(const Workload& w, const PlanEstimate& e, const Measurement& m, CalibrationComparison& out) {
  const Bytes total = e.memory.total();
  const Bytes terms = total - e.memory.overhead;  // what max_memory_allocated sees
  const Device& device = *e.plan.device;
  out.context = device.memory && device.usable_memory() ? *device.memory - *device.usable_memory() : Bytes(0);
  std::optional<MemoryComparison> basis;  // the one the overhead is calibrated from
  if (m.max_allocated)
    out.memory.push_back(*(basis = MemoryComparison{MemoryBasis::allocated, *m.max_allocated, terms}));
  if (m.max_reserved) out.memory.push_back(*(basis = MemoryComparison{MemoryBasis::reserved, *m.max_reserved, total}));
  if (!m.peak_used.empty()) {
    // The device that peaked highest: the plan must fit there.
    Bytes peak(0);
    for (Bytes used : m.peak_used) peak = Bytes(std::max(peak.value, used.value));
    out.memory.push_back(*(basis = MemoryComparison{MemoryBasis::used, peak, total + out.context}));
  }
  if (!basis) {
    out.notes.push_back("no peak memory measured: the overhead is not calibrated");
    return;
  }
  // The overhead that makes the estimate match: the allocated basis keeps the default
  // overhead for what max_memory_allocated does not see, and moves the terms' error into it.
  const double overhead = w.overhead.value + (basis->measured.value - basis->estimated.value);
  if (overhead < 0) {
    out.notes.push_back("the estimate's terms exceed the measured peak by " + format_bytes(Bytes(-overhead)) +
                        ": the overhead is calibrated to 0");
  }
  out.calibration.overhead = Bytes(std::max(0.0, overhead));
}

void compare_training_time(const Workload& w, const PlanEstimate& e, double tokens, double step_s,
                           CalibrationComparison& out) {
  ThroughputComparison t;
  t.tokens_per_step = tokens;
  t.measured_step_s = step_s;
  // The estimate is of one step (calibrate sets the run's tokens to the step's): its compute
  // and the communication it leaves exposed; setup is not part of a step.
  const double exposed = e.communication.exposed().value;
  t.estimated_step_s = e.compute_time.value + exposed;
  t.estimated_efficiency = e.mfu;
  if (step_s <= exposed || e.compute_time.value <= 0) {
    out.notes.push_back(
        "the measured step is no longer than the estimate's exposed communication: the MFU is not "
        "calibrated");
    out.throughput = t;
    return;
  }
  // The MFU at which compute + exposed communication takes the measured step.
  t.measured_efficiency = e.mfu * e.compute_time.value / (step_s - exposed);
  out.throughput = t;
  // Back to the --mfu that effective_mfu turns into it: without the LoRA and QLoRA factors.
  Workload unit = w;
  unit.mfu = 1.0;
  unit.mfu_pinned = true;
  const double task_factor = effective_mfu(*e.plan.device, unit);
  const double pinned = t.measured_efficiency / task_factor;
  if (pinned > 1.0) {
    out.notes.push_back("the measured step implies an MFU above 1 (" + format_general(pinned, 3) +
                        "): check --tokens-per-step, the device and the precision; the MFU is not calibrated");
    return;
  }
  out.calibration.mfu = pinned;
}

void compare_decode_time(const Workload& w, const PlanEstimate& e, double step_s, CalibrationComparison& out) {
  const Device& device = *e.plan.device;
  ThroughputComparison t;
  t.tokens_per_step = w.batch;
  t.measured_step_s = step_s;
  t.estimated_efficiency = w.bandwidth_efficiency;
  if (!device.memory_bandwidth_bytes_per_s) {
    out.notes.push_back("the device has no memory bandwidth in the catalogue: decode is not calibrated");
    return;
  }
  // Pope et al. 2022 (§2): a decode step reads the weights and the KV cache of its device,
  // and pays the engine's fixed costs (engine.hpp), which the efficiency does not cover.
  const double bytes = (e.memory.weights + e.memory.kv_cache).value;
  const double bandwidth = *memory_bandwidth_bytes_per_s(device, e.plan.offering);
  const double fixed = fixed_step_cost(w).value;
  t.estimated_step_s = bytes / (bandwidth * w.bandwidth_efficiency) + fixed;
  if (step_s <= fixed) {
    out.notes.push_back("the measured decode step is shorter than the engine's fixed costs per step (" +
                        format_general(fixed * 1e3, 3) + " ms): decode is not calibrated");
    return;
  }
  t.measured_efficiency = bytes / (bandwidth * (step_s - fixed));
  out.throughput = t;
  if (t.measured_efficiency > 1.0) {
    out.notes.push_back(
        "the measured decode step reads faster than the datasheet bandwidth: decode is not "
        "calibrated");
    return;
  }
  out.calibration.bandwidth_efficiency = t.measured_efficiency;
}

}  // namespace

CalibrationComparison calibrate(const Workload& workload, const PlanEstimate& estimate, const Measurement& measured) {
  const Plan& plan = estimate.plan;
  if (plan.device == nullptr) {
    throw Error(ErrorKind::usage, "calibrate needs the device the run measured",
                "give --device, --offering or --gpus as the run had them");
  }
  if (measured.device && *measured.device != plan.device->id &&
      std::find(plan.device->aliases.begin(), plan.device->aliases.end(), *measured.device) ==
          plan.device->aliases.end()) {
    throw Error(
        ErrorKind::usage,
        "the measured run was on " + in_quotes(*measured.device) + ", the plan on " + in_quotes(plan.device->id),
        "calibrate with the device the run had");
  }
  if (measured.devices && *measured.devices != plan.device_count) {
    throw Error(ErrorKind::usage,
                "the measured run had " + std::to_string(*measured.devices) + " device(s), the plan " +
                    std::to_string(plan.device_count),
                "give --count " + std::to_string(*measured.devices) + " (and the layout the run had)");
  }
  CalibrationComparison out;
  Calibration& c = out.calibration;
  c.device_id = plan.device->id;
  c.stack = std::string(to_string(stack_of(*plan.device)));
  c.precision = workload.precision;
  c.task = workload.task;
  c.measured = measured.date;
  compare_memory(workload, estimate, measured, out);
  if (measured.step_time_s) {
    if (workload.task == Task::inference) {
      compare_decode_time(workload, estimate, *measured.step_time_s, out);
    } else if (workload.is_training()) {
      compare_training_time(workload, estimate, step_tokens(workload, plan, measured), *measured.step_time_s, out);
    }
  } else {
    out.notes.push_back("no step time measured: the efficiency is not calibrated");
  }
  return out;
}

}  // namespace mlsize
