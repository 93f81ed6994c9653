#pragma once
// Run time of gradient-boosted trees (--task gbdt): histogram GBDT as in XGBoost `hist`
// (CPU and `device="cuda"`) and LightGBM. Formula, constants and sources:
// docs/methodology.md#gbdt-run-time.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/strategy.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/units.hpp>

#include <algorithm>
#include <optional>

namespace mlsize {

// Bytes per value of the input matrix: float32, as XGBoost's DMatrix and LightGBM's
// Dataset read it. Rows from --data are dataset bytes / (features × this).
inline constexpr double k_gbdt_bytes_per_value = 4.0;

// Histogram cell visits (one row × one feature added to a histogram) per second on one CPU
// core, per library, fitted to the four published runs of XGBoost `hist` and LightGBM on the
// same data and machine (docs/methodology.md#gbdt-libraries): Higgs 10.5M × 28, 500 rounds,
// 16 threads (LightGBM docs/Experiments.rst, 2020-03-08: 165.6 s and 130.1 s); airline 10M ×
// 8, 100 trees of depth 10 on 16 cores (szilard/GBM-perf #56, 2024: 22 s and 10 s) and on 48
// (#59: 19 s and 9 s); airline 100M on the same 48 (GBM-perf README, 2024 update: 190 s and
// 55 s). Each run's rate under this file's speed-up; the geometric mean.
inline constexpr double k_xgboost_cpu_visits_per_core_s = 3.2e8;
inline constexpr double k_lightgbm_cpu_visits_per_core_s = 6.9e8;
// scikit-learn's HistGradientBoosting, a port of LightGBM's algorithm: its rate as a share of
// LightGBM's on the same machine: scikit-learn PR #12807 (Higgs 5M rows, 50 trees, the same
// machine: HistGradientBoosting 28.8 s, LightGBM 27.6 s): 27.6 / 28.8.
inline constexpr double k_sklearn_lightgbm_share = 0.96;

// A GPU's time for a run: a latency per tree level (kernel launches and synchronisation,
// whatever the data) plus the visits at a rate per streaming multiprocessor: XGBoost's
// GPU histograms are built with shared-memory atomics on every SM, so the rate follows the
// SMs, not the memory bandwidth. Least squares over szilard/GBM-perf (issue #57, 2024,
// XGBoost device="cuda", airline 8 values a row, 100 trees of depth 10 = 1,000 levels): 10M
// rows (4.4e10 visits) on L4 (58 SMs) 6 s, A10G (80) 5 s, V100 (80) 5 s, A100 (108) 3.7 s,
// H100 (132) 3.6 s, and 1M rows on the A10G 1.6 s; the model gives 6.2, 4.8, 4.8, 3.9, 3.5
// and 1.7 s (all within 6 %). The model before, a rate capped at 1.2e10 visits/s, timed an
// A10G as an H100 (issue 48).
inline constexpr double k_gbdt_gpu_visits_per_sm_s = 1.56e8;
inline constexpr double k_gbdt_gpu_level_seconds = 1.32e-3;
// A GPU whose SMs the catalogue does not state: the rate per byte/s of memory bandwidth of
// the same runs (the median GPU's), at most the largest GPU's rate above.
inline constexpr double k_gbdt_gpu_visits_per_byte = 0.0194;
inline constexpr double k_gbdt_gpu_visits_cap_per_s = 132 * k_gbdt_gpu_visits_per_sm_s;

// Amdahl's serial fraction of a histogram GBDT on one machine's cores, fitted to LightGBM on
// Higgs (8.8M rows) on 5 to 44 cores (speed-ups 3.4, 5.9, 7.7, 8.6; scikit-learn PR #14392).
// It does not shrink with the rows: on 48 cores airline 10M → 100M took 10× the time with
// XGBoost (19 → 190 s) and 6.1× with LightGBM (9 → 55 s) (GBM-perf #59 and README): a
// machine's cores share its memory and caches. Machines and GPUs, each with its own memory,
// divide the work: the speed-up across them is linear (LightGBM's Criteo run, 1 → 16
// machines: 14.95×), less the histograms' all-reduce.
inline constexpr double k_gbdt_serial_fraction = 0.09;

// Hardware threads per physical core on the x86 clouds (AWS EC2 CPU options:
// ThreadsPerCore defaults to 2), for an offering that states no threads_per_core; histogram
// GBDT gains nothing from the second thread.
inline constexpr int k_threads_per_core = 2;

// Memory (docs/methodology.md#gbdt-memory). What one worker holds of its share of the rows:
// the float values its process was given, their bin indices, per-row arrays and the
// histograms of a tree's deepest level.
//
// A CPU's bin index is one byte while the bins fit in 256 (XGBoost's GHistIndexMatrix,
// LightGBM's 8-bit dense bins, scikit-learn's X_BINNED_DTYPE uint8), else two; XGBoost also
// builds a column-major copy (ColumnMatrix, src/data/gradient_index.cc).
inline constexpr int k_gbdt_small_bin_limit = 256;
// scikit-learn's HistGradientBoosting converts X to float64 (X_DTYPE) before binning, and
// the caller still holds its own array: 4 + 8 bytes per value.
inline constexpr double k_sklearn_input_bytes_per_value = 8.0;
// Per row: the gradient pair (two float32: XGBoost's GradientPair, scikit-learn's G_H_DTYPE).
inline constexpr double k_gbdt_gradient_bytes_per_row = 8.0;
// Per row besides, on a CPU: the label and the prediction cache (float32 each), the row's
// offset in the bin index and its place in the node partition (a size_t each).
inline constexpr double k_gbdt_cpu_other_bytes_per_row = 24.0;
// On a GPU: the label and prediction (4 + 4), the gradients quantised to two int64 (16) and
// the row partitioner's two uint32 buffers (8): xgboost updater_gpu_hist.cu, row_partitioner.cuh.
inline constexpr double k_gbdt_gpu_other_bytes_per_row = 32.0;
// Per histogram bin: the sums of gradients and of hessians in double (XGBoost's
// GradientPairPrecise, LightGBM's hist_t pair, scikit-learn's HISTOGRAM_DTYPE).
inline constexpr double k_gbdt_bytes_per_bin = 16.0;

// Bytes per value of XGBoost's ELLPACK page on a GPU: each value is a bin symbol packed into
// ceil(log2(symbols)) bits (src/common/compressed_iterator.h SymbolBits). Since XGBoost 3.0
// dense data stores a feature's own bin (CalcNumSymbols, src/data/ellpack_page.cu): the bins
// per feature, and one more for a missing value.
double ellpack_bytes_per_value(int bins);

// What one worker holds, in bytes, for `workload` split over `workers` (GPUs, or machines
// of one CPU process each); the input on the host for a GPU worker.
struct GbdtMemory {
  double input = 0;       // the float values the process holds (on the host for GPUs)
  double quantised = 0;   // their bin indices: 1 or 2 bytes each on a CPU, ELLPACK on a GPU
  double gradients = 0;   // the gradient pairs of its rows
  double row_arrays = 0;  // labels, predictions, row partition
  double histograms = 0;  // nodes of the deepest level × features × bins × 16 bytes
};
GbdtMemory gbdt_memory(const Workload& workload, bool on_gpu, int workers);

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

// Speed-up of `cores` of one machine over one core: Amdahl with the serial fraction above.
double gbdt_core_speedup(int cores);

// Across machines (xgboost.dask, xgboost.spark, lightgbm.dask) each machine builds the
// histograms of its own rows and, at every level of a tree, all-reduces those of the nodes it
// built (docs/methodology.md#distributed-gbdt): a ring moves 2 (N − 1) / N of the bytes
// through each machine's network link in 2 (N − 1) steps, each paying one message latency.
// The latency: one TCP round trip within a cloud region (docs/methodology.md#distributed-gbdt).
inline constexpr double k_gbdt_message_latency_s = 50e-6;

// The histogram bytes a tree all-reduces: the root, then the smaller child of each split
// (the other comes by subtraction), 2^(depth − 1) nodes in all, × features × bins × 16 bytes.
double gbdt_histogram_bytes_per_tree(const Workload& workload);

// What computes one plan: the workers (physical cores of a CPU offering's machines, or their
// GPUs), the visits each does per second, and the machines and their network. Nothing when
// the library does not run on the device (scikit-learn and LightGBM on GPUs, TPUs, NPUs,
// non-NVIDIA GPUs) or the figures are missing (a CPU offering without vCPUs, a GPU without
// memory bandwidth, machines without a stated network).
struct GbdtThroughput {
  int workers = 1;
  double visits_per_s_per_worker = 0;
  Seconds level_latency{0};  // GPUs: k_gbdt_gpu_level_seconds per tree level; CPUs: none
  bool on_gpu = false;
  int machines = 1;
  double network_bytes_per_s = 0;  // per machine; 0 on one machine
  // Over one worker: the GPUs, each on its own memory; or the machines × one machine's cores
  // under Amdahl (gbdt_core_speedup).
  double speedup() const;
};
std::optional<GbdtThroughput> gbdt_throughput(const Workload& workload, const Device& device, const Offering* offering,
                                              int device_count);

// Visits per second on one CPU core of `library`.
double gbdt_cpu_visits_per_core_s(GbdtLibrary library);

// What is sized, as a sentence part: the library and how it runs ("XGBoost hist on CPUs,
// device=\"cuda\" on GPUs"); for scikit-learn, the estimators.
const char* gbdt_library_text(GbdtLibrary library);

// Whether `library` grows trees on `device` at all (before any figure is asked for).
bool gbdt_runs_on(GbdtLibrary library, const Device& device);

// External memory (docs/methodology.md#gbdt-external-memory): XGBoost's
// ExtMemQuantileDMatrix on one GPU keeps the ELLPACK cache in host memory, or part of it, and
// streams it to the GPU at every level of a tree. The split is XGBoost's own (3.1 and later,
// src/data/batch_utils.cc DftPageSizeHostRatio, src/data/batch_utils.h): with a full
// NVLink-C2C link the whole cache stays on the host, in pages of 1/8 of the GPU's memory;
// over PCIe half the GPU's memory is for the cache: a cache within it stays on the GPU, a
// larger one leaves 85% of that half on the GPU and the rest on the host, in pages of 1/16.
// Two pages are in flight (DftPrefetchBatches: one worked on, one in transfer).
inline constexpr double k_extmem_page_share = 0.125;
inline constexpr double k_extmem_device_cache_share = 0.5;
inline constexpr double k_extmem_device_cache_fill = 0.85;
inline constexpr int k_extmem_pages_in_flight = 2;
// What a transfer of the cache gets of the host link's one-way rate, fitted to XGBoost's
// measurements (doc/tutorials/external_memory.rst): about 24 GB/s over PCIe 4 x16 (of 32),
// 42 over PCIe 5 (of 64) and 350 from a GH200's host (of 450 on NVLink-C2C): the geometric
// mean of 0.75, 0.66 and 0.78.
inline constexpr double k_extmem_link_efficiency = 0.726;

// Where one GPU's external-memory run keeps the cache of `cache_bytes`, on a GPU of
// `gpu_bytes`, over a full NVLink-C2C link (`c2c`) or PCIe.
struct ExtMemCache {
  double on_host = 0;    // streamed at every pass
  double on_device = 0;  // kept on the GPU
  double page = 0;       // one page's bytes (min_cache_page_bytes)
  double pages = 0;      // the pages in flight on the GPU
};
ExtMemCache extmem_cache(double cache_bytes, double gpu_bytes, bool c2c);

// The float input of one batch the DataIter hands XGBoost, which the host reads before the GPU
// takes it: the tutorial's example divides 1 TB into 128 batches of 8 GB for a GH200 (and
// advises 10 GB batches for a CPU with 64 GB); small batches "can severely hurt performance".
inline constexpr double k_extmem_input_batch_bytes = 8e9;

// The rate at which the cache streams to `device`: its host link's one-way rate × the
// efficiency above. The host link is the interconnect of a PCIe card (its slot) or a
// Grace Hopper's NVLink-C2C; nothing for boards whose host link the catalogue does not state
// (SXM boards: their interconnect is NVLink between GPUs).
std::optional<double> extmem_link_bytes_per_s(const Device& device, const Offering* offering);

// Lays `strategy` out for external memory on `device`, as candidate_plans and `estimate
// --external-memory` both do: the GPU's bytes and whether its host link is NVLink-C2C. False,
// and `strategy` unchanged, where the catalogue states no memory or no host link for it.
bool lay_out_external_memory(Strategy& strategy, const Device& device, const Offering* offering);

// Passes over the cache per tree: two per level (the tutorial: "A tree with depth 8 needs at
// least 16 iterations through the data").
double gbdt_extmem_passes_per_tree(int depth);

// One plan's run: its throughput, the visits, the workers' speed-up and the time the
// machines spend all-reducing histograms.
struct GbdtRun {
  GbdtThroughput throughput;
  double cell_visits = 0;
  double levels = 0;  // tree levels over the run: rounds × depth
  double speedup = 1;
  Seconds communication{0};
  // External memory: the cache's host part streamed at every pass, overlapped with the
  // compute ("the actual computation should overlap with memory copy as much as possible").
  Seconds transfer{0};
  std::optional<ExtMemCache> extmem;  // where the cache is; external memory only
  double link_bytes_per_s = 0;        // the rate it streams at
  Seconds compute() const {
    return Seconds(cell_visits / (throughput.visits_per_s_per_worker * speedup) +
                   levels * throughput.level_latency.value);
  }
  Seconds seconds() const { return Seconds(std::max(compute().value, transfer.value) + communication.value); }
};
GbdtRun gbdt_run(const Workload& workload, const GbdtThroughput& throughput);

}  // namespace mlsize
