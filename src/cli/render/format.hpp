#pragma once
// Sentences shared by the renderers. Numbers are formatted by mlsize/support/number_format.hpp.

#include <mlsize/estimate/fit_changes.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/rank/report.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize::cli {

// The items with `separator` between them.
std::string join(const std::vector<std::string>& items, std::string_view separator);

std::string describe_hardware(const Plan& plan);  // "8× A100 80GB SXM4 (aws p4de.24xlarge)"
// "ZeRO-2 + full recompute", "ZeRO-1, TP 8, PP 4", or for inference "TP 2 × 4 replicas".
std::string describe_strategy(const Strategy& strategy, int device_count, Task task);
std::string describe_rejection(const Rejection& rejection, const Workload& workload);

// Table cells: "42.1 / 80.0" (memory per device against capacity), and the device with
// its offering, "NVIDIA H100 SXM5 80GB · aws p5.48xlarge x2".
// The flags that make the change of a plan that does not fit: "--recompute full",
// "--count 16 --zero 3" (ways_to_fit).
std::string fit_change_flags(const FitChange& change, const Plan& from);
// "; offloading to host RAM was not planned, ..." for a full-training GPU plan whose offering
// states no host RAM or no vCPUs (docs/methodology.md#offload-in-the-search); empty otherwise.
std::string unplanned_offload_note(const Plan& plan, const Workload& workload);
// The flags that select a way out (recommend with nothing ranked): "--task lora", "--gpus h100-sxm:16".
std::string way_out_flags(const WayOut& way);
// The rows of the ways-out table (change, hardware, devices, strategy, memory, time, $/hour,
// cost), as the table and the HTML show them; `wide` as hardware_cell's.
std::vector<std::vector<std::string>> ways_out_rows(const Report& report, bool wide);

std::string memory_cell(const PlanEstimate& e);
// What --memory-headroom keeps free of a device: "10%", or "10% of what the model leaves"
// where the engine sizes its KV cache from that (headroom_of_free).
std::string headroom_text(const Workload& workload);
// A row's rank: "3", with "*" on the Pareto front and "~" where the tie-break, not the
// objective, put it above the next row when that row is shown too (ranking_notes says so
// under the table).
std::string rank_cell(std::size_t rank, const RankedPlan& e, bool next_shown);
// What a plan's units cost an hour ("$15.32"), "-" without a price.
std::string per_hour_cell(const PlanEstimate& e);
// The hardware of a row: its device and provider by id (the offering id is in the next:
// line and JSON), an on-premise system by its offering id, or with `wide` the device's and
// offering's names.
// `units`: with " xN" for a plan of N units (a table without a devices column needs it).
std::string hardware_cell(const Plan& plan, bool wide, bool units = true);

// `text` with every line of prose longer than `width` broken at spaces, continuations
// hanging two columns in; table rows (columns padded by runs of spaces) are kept whole.
std::string wrap_prose(const std::string& text, std::size_t width);
// `text` as Markdown (CommonMark with GitHub's extensions) shows it in a line or a table cell:
// every character that would start emphasis, code, a link, strikethrough, a cell or raw HTML
// escaped, and the bare URLs and e-mail addresses GFM would turn into links broken by an
// escape. Line breaks are the caller's (a cell has none, a paragraph ends at one).
std::string markdown_inline(std::string_view text);
// A report's text for Markdown: pipe-table lines ("| ...") kept together, other lines each
// a paragraph, indented lines (advice, continuations) list items.
std::string markdown_paragraphs(const std::string& text);
// Every offering looked at: ranked, to buy (beside the ranking) or rejected.
std::size_t offering_count(const Report& report);

// Why a plan's MFU differs from the workload's, " (...)" or empty: its device's software
// stack and generation, LoRA's measured speed, QLoRA's dequantisation
// (docs/methodology.md#efficiency).
std::string mfu_basis(const PlanEstimate& e, const Workload& workload);

// A vision plan's images per second, and the devices' and the host's decoding rates behind
// it (docs/methodology.md#vision-input-pipeline).
std::string vision_throughput(const VisionRun& run);
// What lifts a data-loader bound.
std::string vision_way_out();

// A diffusion plan's parts: where its weights go (the denoiser, the frozen text encoders and
// VAE), and for generation the batch's latency by part, images a second and the fleet
// (docs/methodology.md#diffusion). Lines ending in a newline; empty for other workloads.
std::string diffusion_lines(const PlanEstimate& e, const Workload& workload);
// A transcription plan's batch: its parts' times and the audio it gets through
// (docs/methodology.md#speech-time). A line ending in a newline; empty for other workloads.
std::string speech_lines(const PlanEstimate& e, const Workload& workload);

}  // namespace mlsize::cli
