#include <mlsize/estimate/gbdt.hpp>

#include <mlsize/estimate/compute.hpp>

#include <algorithm>

namespace mlsize {

double gbdt_rows(const Workload& workload) {
  if (workload.rows > 0) return workload.rows;
  const double bytes = workload.dataset_bytes ? workload.dataset_bytes->value : 0.0;
  return bytes / (workload.features * k_gbdt_bytes_per_value);
}

Bytes gbdt_dataset_bytes(const Workload& workload) {
  if (workload.dataset_bytes) return *workload.dataset_bytes;
  return Bytes(workload.rows * workload.features * k_gbdt_bytes_per_value);
}

double gbdt_passes_per_tree(int depth) {
  return 1.0 + (std::max(depth, 1) - 1) / 2.0;
}

double gbdt_cell_visits(const Workload& workload) {
  return workload.rounds * gbdt_rows(workload) * workload.features * gbdt_passes_per_tree(workload.max_depth);
}

double gbdt_speedup(int workers, double rows) {
  const double serial = rows > 0 ? std::min(1.0, k_gbdt_serial_fraction * k_gbdt_serial_fraction_rows / rows) : 1.0;
  return 1.0 / (serial + (1.0 - serial) / std::max(workers, 1));
}

std::optional<GbdtThroughput> gbdt_throughput(const Device& device, const Offering* offering, int device_count) {
  if (device.kind == DeviceKind::cpu) {
    if (offering == nullptr || !offering->vcpus) return std::nullopt;
    return GbdtThroughput{*rented_cores(*offering), k_gbdt_cpu_visits_per_core_s};
  }
  // XGBoost's and LightGBM's GPU tree builders are written in CUDA (XGBoost GPU docs).
  if (device.kind != DeviceKind::gpu || device.vendor != "nvidia" || !device.memory_bandwidth_bytes_per_s) {
    return std::nullopt;
  }
  const double visits =
      std::min(k_gbdt_gpu_visits_cap_per_s, *device.memory_bandwidth_bytes_per_s * k_gbdt_gpu_visits_per_byte);
  return GbdtThroughput{device_count, visits};
}

GbdtRun gbdt_run(const Workload& workload, const GbdtThroughput& throughput) {
  return GbdtRun{throughput, gbdt_cell_visits(workload), gbdt_speedup(throughput.workers, gbdt_rows(workload))};
}

}  // namespace mlsize
