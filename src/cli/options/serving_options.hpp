#pragma once
// The serving flags of recommend and estimate (docs/cli.md#recommend): a load to size a
// fleet for, or an offline job, with its lengths, targets and engine limits.

#include "cli/options/workload_options.hpp"

#include <mlsize/model/workload.hpp>

#include <CLI/CLI.hpp>

namespace mlsize::cli {

// --rate, --tokens-per-day, --prompt-tokens, --output-tokens, --ttft, --tpot, --max-batch,
// --max-step-tokens, --replica-utilisation.
void add_serving_options(CLI::App& command, WorkloadOptions& options);

// Workload::serving from those flags: a load with --rate or --tokens-per-day, an offline
// job with --tokens; the other serving flags need one of them, and --task inference.
void resolve_serving(const WorkloadOptions& options, Workload& workload);

// Inference holds at most the positions the model takes (Architecture::max_positions).
void check_context(const WorkloadOptions& options, Workload& workload);

// `recommend --task inference` with no load (--rate, --tokens-per-day), no --tokens, --data
// or --batch: the sizing answer (ServingLoad::sizing) for a sequence of the context.
void size_without_load(const WorkloadOptions& options, Workload& workload);

}  // namespace mlsize::cli
