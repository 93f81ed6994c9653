#pragma once
// Calibration from a real run (docs/methodology.md#calibration): what a run measured (an
// nvidia-smi log or PyTorch's peak memory and step time) compared with the estimate of the
// same plan, and the overlay it gives: the MFU, decode bandwidth efficiency and memory
// overhead of one device at one precision, which later estimates use instead of the defaults.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/model/workload.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize {

// The overlay's format version (`calibration: 1`).
inline constexpr int k_calibration_version = 1;

// One calibration overlay: what a run on `device_id` at `precision` measured.
struct Calibration {
  std::string device_id;
  std::string stack;  // to_string(Stack): the software the run measured, for the reader
  Precision precision = Precision::bf16_mixed;
  Task task = Task::pretrain;  // the measured run's
  // The --mfu that reproduces the measured step time (before the LoRA and QLoRA factors of
  // effective_mfu, so that a LoRA run calibrates full fine-tuning on the device too).
  std::optional<double> mfu;
  std::optional<double> bandwidth_efficiency;  // inference decode (Workload::bandwidth_efficiency)
  std::optional<Bytes> overhead;               // per device (Workload::overhead)
  std::string source;                          // the measured file's name
  std::string measured;                        // YYYY-MM-DD, from the log or --date
  std::string mlsize_version;                  // of the mlsize that wrote the overlay
  std::string file;                            // the overlay's own name, for provenance
};

// Parses an overlay; errors are input errors at `name`:line:column.
Calibration parse_calibration(std::string_view text, const std::string& name);

// The calibration for plans on `device` at `precision`: the last given for both, or null.
const Calibration* calibration_for(std::span<const Calibration> calibrations, const Device& device,
                                   Precision precision);

// The fields a calibration sets (the MFU, pinned as --mfu, the bandwidth efficiency and the
// overhead) as `base` has them, then as `calibration` has them when given; the other fields
// of `workload` as they are. One workload serves offering after offering in recommend.
// Whether the overhead changed.
bool apply_calibration(Workload& workload, const Workload& base, const Calibration* calibration);

// What a run measured, read from its log.
enum class MeasurementFormat { nvidia_smi, torch_json };
struct Measurement {
  MeasurementFormat format = MeasurementFormat::torch_json;
  std::string date;                       // YYYY-MM-DD from the log, or empty
  std::optional<std::string> device;      // the JSON's "device", a catalogue id
  std::optional<int> devices;             // GPUs in the log (nvidia-smi) or the JSON's "devices"
  std::vector<Bytes> peak_used;           // nvidia-smi: the peak memory.used of each GPU
  std::vector<std::string> gpus;          // nvidia-smi: each GPU's index or bus id, or its position
  std::optional<Bytes> max_allocated;     // torch.cuda.max_memory_allocated
  std::optional<Bytes> max_reserved;      // torch.cuda.max_memory_reserved
  std::optional<double> step_time_s;      // training: one optimizer step; inference: one decode step
  std::optional<double> tokens_per_step;  // training: tokens in one step over all devices
  int samples = 0;                        // nvidia-smi: lines read
};

// An nvidia-smi CSV log (first line "timestamp, ...") or the JSON of
// docs/cli.md#calibrate; errors are input errors at `name`:line:column.
Measurement parse_measurement(std::string_view text, const std::string& name);

// Which estimate a measured peak is compared with.
enum class MemoryBasis {
  allocated,  // max_memory_allocated: the terms without the overhead
  reserved,   // max_memory_reserved: the estimate with its overhead
  used,       // nvidia-smi memory.used: the estimate, its overhead and the CUDA context
};

// One row of the comparison, per device.
struct MemoryComparison {
  MemoryBasis basis = MemoryBasis::allocated;
  Bytes measured;
  Bytes estimated;
};

struct ThroughputComparison {
  double measured_step_s = 0;
  double estimated_step_s = 0;
  double tokens_per_step = 0;
  double measured_efficiency = 0;   // effective MFU, or decode bandwidth efficiency
  double estimated_efficiency = 0;  // what the estimate assumed
};

struct CalibrationComparison {
  std::vector<MemoryComparison> memory;  // each basis the measurement has
  std::optional<ThroughputComparison> throughput;
  Bytes context;  // the CUDA context the used basis adds (Device::memory − usable_memory)
  Calibration calibration;
  std::vector<std::string> notes;  // what could not be calibrated, and why
};

// Compares `measured` with `estimate`, the estimate of `plan` for `workload` (a run of
// one step: `workload.tokens` is the step's tokens), and derives the overlay. Throws a
// usage error when the measurement cannot be of this plan (another device or count).
CalibrationComparison calibrate(const Workload& workload, const PlanEstimate& estimate, const Measurement& measured);

// The tokens of one training step: the measured figure, else micro-batch × sequence ×
// data-parallel devices; inference: the batch (one token per sequence per decode step).
double step_tokens(const Workload& workload, const Plan& plan, const Measurement& measured);

}  // namespace mlsize
