#pragma once
// Choosing and ordering plans. Rules: docs/methodology.md#ranking.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/estimate/calibration.hpp>
#include <mlsize/estimate/cost.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/rank/report.hpp>
#include <mlsize/rules/rules.hpp>

#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlsize {

// Costs (or times) within this fraction of each other rank as ties, broken by the other
// axis; the Pareto flag uses the same tolerance (docs/methodology.md#objectives).
inline constexpr double k_near_tie = 0.02;

// The most devices a plan gets on demand from a provider that states no limit
// (OnDemandLimit): one 8-GPU machine, the largest on-demand instance at Lambda and what
// AWS's default P quota holds; a stated default (docs/catalogue.md#availability).
inline constexpr int k_default_on_demand_devices = 8;

// The largest number of devices one plan may use unless the user says otherwise.
inline constexpr int k_default_max_devices = 512;

// Without a deadline, plans longer than this are not recommended: a run of months is a
// decision to take on purpose (--max-run-time), not a default answer. At that length
// interruptions are routine (Llama 3, arXiv:2407.21783 §3.3.4: 466 job interruptions in a
// 54-day snapshot on 16k GPUs) and the hardware generation may change under the run.
inline constexpr double k_default_max_run_time_days = 30;

struct RecommendSettings {
  Objective objective = Objective::cost;
  int max_devices = k_default_max_devices;
  // Exact device counts per device id (--gpus h100:8): that device's offerings are planned
  // only at these counts, each made of whole units; a device not named here, at any count.
  // Counts above max_devices are not planned.
  std::map<std::string, std::vector<int>, std::less<>> device_counts;
  Seconds max_run_time{k_default_max_run_time_days * 24 * k_seconds_per_hour};  // when no deadline
  // Rank hardware to buy (on-premise offerings not owned) beside rentals, at its amortised
  // cost; the budget is then checked against the purchase price. Off: only what can be
  // rented and what the user owns (CostSettings::owned) is ranked.
  bool include_purchase = false;
  // Skip the training plans a fitting plan of the same layout dominates, unestimated
  // (docs/methodology.md#pruning): the same report, from fewer estimates. Off only to
  // check that claim.
  bool prune = true;
  // Estimate the plans of offerings that share a shape (same_shape) once, and price them per
  // offering: the same report, from fewer estimates (issue 49). Off only to check that
  // claim.
  bool share_shapes = true;
  // Offerings planned at once, on this many threads (at most one per 40 offerings); the
  // report is the same for any number. The library runs on the caller's thread unless told.
  std::size_t threads = 1;
  // Train each device at the best precision it supports (precision_for), starting from the
  // workload's; off when the user pins --precision.
  bool precision_per_device = true;
  // Report::advice gathers the rules that fired on this many recommendations, from #1
  // down: the ones shown (--top).
  std::size_t advice_from = std::numeric_limits<std::size_t>::max();
  // The recommendations, from #1 down, that get their rule_notes (rendering every rule's
  // message costs more than ranking an offering): the ones shown, and at least the
  // advice_from ones the advice is gathered from. Purchases all get them.
  std::size_t notes_for = std::numeric_limits<std::size_t>::max();
  // The recommendations, from #1 down, that get RankedPlan::smallest and ::fastest (each an
  // estimate made again for it): the ones shown. Purchases all get them.
  std::size_t alternatives_for = std::numeric_limits<std::size_t>::max();
  // Whether Report::advice also gathers tips (Severity::tip): practice that holds for any
  // plan, such as watching utilisation. Off, the advice is about this ranking only.
  bool tips = false;
  CostSettings cost;
  // Overlays of `mlsize calibrate` (docs/methodology.md#calibration): plans on a device at a
  // precision one of them measured use its MFU, bandwidth efficiency and overhead.
  std::vector<Calibration> calibrations;
  const RuleSet* rules = nullptr;  // applied to every plan when set; must outlive the report
  // When nothing is ranked, search the request again with each way out (Report::ways_out);
  // those searches do not look further.
  bool ways_out = true;
};

// A training run starts from a 16-bit checkpoint, and the host of each machine reads it
// whole: ranks that each load the model on the CPU need N copies ("each process is loading
// 160GB ... in CPU RAM", pytorch/pytorch#105840), and RAM-efficient loading, where only the
// first process reads the checkpoint, still needs one (huggingface/transformers PR #25107,
// accelerate's fsdp_cpu_ram_efficient_loading).
inline constexpr double k_checkpoint_bytes_per_parameter = 2.0;

// The CPUs a machine of `gpus` GPUs needs beside them, counted as `physical` cores or as
// vCPUs (hyperthreads): a floor below which the job does not run as timed, not a
// recommended shape.
// Serving with vLLM: "The minimum is 2 + N physical cores (1 for the API server, 1 for the
// engine core, and 1 per GPU worker)"; the engine core "runs a busy loop and is particularly
// sensitive to CPU starvation" (docs.vllm.ai, configuration/optimization, "CPU resources for
// GPU deployments"). Serving with SGLang, the same count of processes: the HTTP server and
// tokenizer in the main one, a scheduler per GPU (its busy event loop) and the detokenizer
// ("Scheduler (subprocess)", "DetokenizerManager (subprocess)", the Engine docstring of
// python/sglang/srt/entrypoints/engine.py). None for other engines, which state no such floor.
// Training: per accelerator "1 cpu core per process that is tied to the accelerator" and one
// per DataLoader worker (stas00/ml-engineering, compute/cpu/README.md). The floor keeps one
// worker, the least that has the next batch ready while the GPU steps; the chapter's "2
// workers is usually plenty for LMs" and "+4 for the OS" size a node, and would reject the
// 2-vCPU Colab T4 and 4-vCPU Kaggle T4 x2 on which small models do train. Counted as vCPUs:
// a worker reading tokenised data mostly waits. Vision and trees are timed on the host's
// cores instead (loader_bound in vision.hpp, gbdt.hpp): a host short of CPUs runs them,
// slower.
struct HostCpus {
  int count = 0;
  bool physical = false;  // physical cores (vCPUs ÷ threads per core), else vCPUs
};
inline constexpr int k_training_cpus_per_gpu = 2;
std::optional<HostCpus> host_cpus_needed(const Workload& workload, int gpus);

// What the host RAM of each machine of `gpus` accelerators must hold before they take it:
// GBDT on GPUs, the data (gbdt_dataset_bytes); training, one 16-bit copy of the weights and
// each rank's process, whose CUDA libraries and context take about 2 GB of host RAM (max
// RSS 2,056,600 kB after one tensor on the GPU, PyTorch 2.2, pytorch/pytorch#113326);
// nothing for inference (engines stream the checkpoint shard by shard).
// docs/methodology.md#checks-in-order.
inline constexpr double k_rank_host_bytes = 2e9;
std::optional<Bytes> host_must_hold(const Workload& workload, int gpus);

// What a budget is checked against: the purchase for hardware to buy, the commitment for a
// reservation that costs more than the run, else the run's cost.
Usd budget_cash(const PlanEstimate& e);

// Every offering's plans are estimated and, with rules, judged by them; per offering the
// best feasible plan under the objective (divided by its rule score) is kept, ties going
// to fewer devices, lower ZeRO stage, no recomputation.
// The report points into `catalog`, which must outlive it.
Report recommend(const Workload& workload, const Catalog& catalog, const RecommendSettings& settings);

// Of a report's rejections for memory (and for the host's RAM of an offload plan), the plan
// nearest to fitting; none without such a rejection.
std::optional<RankedPlan> nearest_to_fitting(const Report& report);

}  // namespace mlsize
