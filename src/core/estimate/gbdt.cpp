#include <mlsize/estimate/gbdt.hpp>

#include <mlsize/estimate/compute.hpp>

#include <algorithm>
#include <cmath>

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

double ellpack_bytes_per_value(int bins) {
  return std::ceil(std::log2(bins + 1.0)) / 8.0;
}

GbdtMemory gbdt_memory(const Workload& workload, bool on_gpu, int workers) {
  const double rows = gbdt_rows(workload) / std::max(workers, 1);
  const double values = rows * workload.features;
  GbdtMemory memory;
  // The process holds the array it was given (--data is its size), split over the workers.
  memory.input = gbdt_dataset_bytes(workload).value / std::max(workers, 1);
  if (workload.library == GbdtLibrary::sklearn) memory.input += values * k_sklearn_input_bytes_per_value;
  const double index_bytes =
      (workload.bins <= k_gbdt_small_bin_limit ? 1.0 : 2.0) * (workload.library == GbdtLibrary::xgboost ? 2.0 : 1.0);
  memory.quantised = values * (on_gpu ? ellpack_bytes_per_value(workload.bins) : index_bytes);
  memory.gradients = rows * k_gbdt_gradient_bytes_per_row;
  memory.row_arrays = rows * (on_gpu ? k_gbdt_gpu_other_bytes_per_row : k_gbdt_cpu_other_bytes_per_row);
  memory.histograms =
      std::ldexp(1.0, std::max(workload.max_depth, 1)) * workload.features * workload.bins * k_gbdt_bytes_per_bin;
  return memory;
}

double gbdt_passes_per_tree(int depth) {
  return 1.0 + (std::max(depth, 1) - 1) / 2.0;
}

double gbdt_cell_visits(const Workload& workload) {
  return workload.rounds * gbdt_rows(workload) * workload.features * gbdt_passes_per_tree(workload.max_depth);
}

double gbdt_core_speedup(int cores) {
  return 1.0 / (k_gbdt_serial_fraction + (1.0 - k_gbdt_serial_fraction) / std::max(cores, 1));
}

double GbdtThroughput::speedup() const {
  if (on_gpu) return workers;
  const int machine_count = std::max(machines, 1);
  return machine_count * gbdt_core_speedup(workers / machine_count);
}

double gbdt_histogram_bytes_per_tree(const Workload& workload) {
  return std::ldexp(1.0, std::max(workload.max_depth, 1) - 1) * workload.features * workload.bins *
         k_gbdt_bytes_per_bin;
}

double gbdt_cpu_visits_per_core_s(GbdtLibrary library) {
  switch (library) {
    case GbdtLibrary::xgboost: return k_xgboost_cpu_visits_per_core_s;
    case GbdtLibrary::lightgbm: return k_lightgbm_cpu_visits_per_core_s;
    case GbdtLibrary::sklearn: return k_lightgbm_cpu_visits_per_core_s * k_sklearn_lightgbm_share;
  }
  return k_xgboost_cpu_visits_per_core_s;
}

const char* gbdt_library_text(GbdtLibrary library) {
  switch (library) {
    case GbdtLibrary::xgboost: return "XGBoost (hist on CPUs, device=\"cuda\" on GPUs; Dask or Spark across machines)";
    case GbdtLibrary::lightgbm: return "LightGBM (CPUs; Dask or SynapseML on Spark across machines)";
    case GbdtLibrary::sklearn:
      return "scikit-learn HistGradientBoostingClassifier/Regressor (one machine's CPU cores; "
             "GradientBoostingClassifier/Regressor, single-threaded exact trees, not sized)";
  }
  return "";
}

bool gbdt_runs_on(GbdtLibrary library, const Device& device) {
  if (device.kind == DeviceKind::cpu) return true;
  // XGBoost's GPU tree builder is CUDA (XGBoost GPU docs); LightGBM's CUDA learner is not in
  // its pip wheel and has no sourced rate here, and scikit-learn runs on CPUs only.
  return library == GbdtLibrary::xgboost && device.kind == DeviceKind::gpu && device.vendor == "nvidia";
}

std::optional<GbdtThroughput> gbdt_throughput(const Workload& workload, const Device& device, const Offering* offering,
                                              int device_count) {
  if (!gbdt_runs_on(workload.library, device)) return std::nullopt;
  const int per_unit = offering != nullptr ? offering->devices_per_unit : device_count;
  GbdtThroughput throughput;
  throughput.machines = std::max(1, device_count / std::max(per_unit, 1));
  if (throughput.machines > 1) {
    if (offering == nullptr || !offering->network_gbps) return std::nullopt;
    throughput.network_bytes_per_s = *offering->network_gbps * 1e9 / 8.0;
  }
  if (device.kind == DeviceKind::cpu) {
    if (offering == nullptr || !offering->vcpus) return std::nullopt;
    throughput.workers = *rented_cores(*offering) * throughput.machines;
    throughput.visits_per_s_per_worker = gbdt_cpu_visits_per_core_s(workload.library);
    return throughput;
  }
  if (!device.memory_bandwidth_bytes_per_s) return std::nullopt;
  throughput.on_gpu = true;
  throughput.workers = device_count;
  throughput.visits_per_s_per_worker =
      device.multiprocessors
          ? *device.multiprocessors * k_gbdt_gpu_visits_per_sm_s
          : std::min(k_gbdt_gpu_visits_cap_per_s, *device.memory_bandwidth_bytes_per_s * k_gbdt_gpu_visits_per_byte);
  throughput.level_latency = Seconds(k_gbdt_gpu_level_seconds);
  return throughput;
}

ExtMemCache extmem_cache(double cache_bytes, double gpu_bytes, bool c2c) {
  ExtMemCache cache;
  if (c2c) {
    cache.on_host = cache_bytes;
    cache.page = k_extmem_page_share * gpu_bytes;
  } else {
    // Half the GPU's memory holds the cache, so the pages are half as large.
    const double device_share = k_extmem_device_cache_share * gpu_bytes;
    cache.page = k_extmem_page_share / 2 * gpu_bytes;
    cache.on_device = cache_bytes <= device_share ? cache_bytes : k_extmem_device_cache_fill * device_share;
    cache.on_host = cache_bytes - cache.on_device;
  }
  cache.pages = std::min(cache.on_host, k_extmem_pages_in_flight * cache.page);
  return cache;
}

std::optional<double> extmem_link_bytes_per_s(const Device& device, const Offering* offering) {
  const std::optional<Interconnect>& link = interconnect_of(device, offering);
  if (!link || (link->kind != "pcie" && link->kind != "nvlink-c2c") || link->bandwidth_bytes_per_s <= 0) {
    return std::nullopt;
  }
  return link->bandwidth_bytes_per_s / 2 * k_extmem_link_efficiency;  // both directions → one
}

bool lay_out_external_memory(Strategy& strategy, const Device& device, const Offering* offering) {
  if (!device.memory || !extmem_link_bytes_per_s(device, offering)) return false;
  strategy.trees_extmem_gpu_bytes = device.memory->value;
  strategy.trees_extmem_c2c = interconnect_of(device, offering)->kind == "nvlink-c2c";
  return true;
}

double gbdt_extmem_passes_per_tree(int depth) {
  return 2.0 * std::max(depth, 1);
}

GbdtRun gbdt_run(const Workload& workload, const GbdtThroughput& throughput) {
  GbdtRun run;
  run.throughput = throughput;
  run.cell_visits = gbdt_cell_visits(workload);
  run.levels = static_cast<double>(workload.rounds) * std::max(workload.max_depth, 1);
  run.speedup = throughput.speedup();
  const int n = throughput.machines;
  if (n > 1) {
    const double steps = 2.0 * (n - 1);
    const double per_tree = steps / n * gbdt_histogram_bytes_per_tree(workload) / throughput.network_bytes_per_s +
                            std::max(workload.max_depth, 1) * steps * k_gbdt_message_latency_s;
    run.communication = Seconds(workload.rounds * per_tree);
  }
  return run;
}

}  // namespace mlsize
