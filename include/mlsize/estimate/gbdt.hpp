#pragma once
// Run time of gradient-boosted trees (--task gbdt): histogram GBDT as in XGBoost `hist`
// (CPU and `device="cuda"`) and LightGBM. Formula, constants and sources:
// docs/methodology.md#gbdt-run-time.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/units.hpp>

#include <optional>

namespace mlsize {

// Bytes per value of the input matrix: float32, as XGBoost's DMatrix and LightGBM's
// Dataset read it. Rows from --data are dataset bytes / (features × this).
inline constexpr double k_gbdt_bytes_per_value = 4.0;

// Histogram cell visits (one row × one feature added to a histogram) per second on one
// CPU core: LightGBM on Higgs (8.8M × 28, 255 leaves ≈ depth 8, 100 trees) in 300 s on
// one thread (scikit-learn PR #14392, ogrisel, 2019-07-17): 8.8e6 × 28 × 4.5 × 100 / 300.
inline constexpr double k_gbdt_cpu_visits_per_core_s = 3.7e8;

// Per-GPU visits per second: `device="cuda"` is bound by memory bandwidth on small GPUs
// and by kernel latency on large ones. Fitted to szilard/GBM-perf (issue #57, 2024,
// airline 10M rows × 8 values, 100 trees of depth 10): L4 6 s, A10 5 s, V100 5 s, A100
// 3.7 s, H100 3.6 s: visits = min(cap, bandwidth × per byte).
inline constexpr double k_gbdt_gpu_visits_per_byte = 0.0244;
inline constexpr double k_gbdt_gpu_visits_cap_per_s = 1.2e10;

// Amdahl's serial fraction of a histogram GBDT, fitted to LightGBM on Higgs on 5 to 44
// cores (speed-ups 3.4, 5.9, 7.7, 8.6; scikit-learn PR #14392) at 8.8M rows. The serial
// part is per tree node (split search over features × bins, merging the threads'
// histograms), which does not grow with the rows, so the fraction shrinks as 1/rows.
inline constexpr double k_gbdt_serial_fraction = 0.09;
inline constexpr double k_gbdt_serial_fraction_rows = 8.8e6;

// Hardware threads per physical core on the x86 clouds (AWS EC2 CPU options:
// ThreadsPerCore defaults to 2), for an offering that states no threads_per_core; histogram
// GBDT gains nothing from the second thread.
inline constexpr int k_threads_per_core = 2;

// The examples of a gbdt workload: --rows, else the dataset bytes / (features × 4 bytes).
double gbdt_rows(const Workload& workload);

// The bytes of the input matrix: --data, else the rows × features × 4 bytes (float32). The
// host loads all of it before a GPU builds its quantised copy (XGBoost's QuantileDMatrix
// reads the array the user's process holds), so a GPU plan's host must hold it too.
Bytes gbdt_dataset_bytes(const Workload& workload);

// Histogram passes over the data per tree: the root reads every row, each deeper level
// only the smaller child of each split (LightGBM's and XGBoost's histogram subtraction),
// at most half the rows: 1 + (depth − 1) / 2.
double gbdt_passes_per_tree(int depth);

// rounds × rows × features × passes per tree.
double gbdt_cell_visits(const Workload& workload);

// Speed-up of `workers` cores or GPUs over one: Amdahl with the serial fraction above.
double gbdt_speedup(int workers, double rows);

// What computes one plan: the workers (physical cores of a CPU offering, or its GPUs)
// and the visits each does per second. Nothing when the device runs no GBDT library
// (TPUs, NPUs, non-NVIDIA GPUs) or the figures are missing (a CPU offering without
// vCPUs, a GPU without memory bandwidth).
struct GbdtThroughput {
  int workers = 1;
  double visits_per_s_per_worker = 0;
};
std::optional<GbdtThroughput> gbdt_throughput(const Device& device, const Offering* offering, int device_count);

// One plan's run: its throughput, the visits and the workers' speed-up.
struct GbdtRun {
  GbdtThroughput throughput;
  double cell_visits = 0;
  double speedup = 1;
  Seconds seconds() const { return Seconds(cell_visits / (throughput.visits_per_s_per_worker * speedup)); }
};
GbdtRun gbdt_run(const Workload& workload, const GbdtThroughput& throughput);

}  // namespace mlsize
