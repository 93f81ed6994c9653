#pragma once
// vLLM's `vllm serve` command for a serving plan, shared by --emit vllm and the run: of
// --emit skypilot (docs/launch.md#vllm).

#include "cli/render/shell_command.hpp"

#include <mlsize/launch/launch.hpp>

#include <string>

namespace mlsize::cli {

inline constexpr int k_vllm_port = 8000;  // vLLM's default (vllm/entrypoints/openai/cli_args.py)

// `vllm serve MODEL` with the plan's engine arguments; MODEL is `${MODEL}` when mlsize cannot
// name the checkpoint.
Command vllm_command(const LaunchSpec& spec);

// Whether the command leaves the checkpoint to the user (`${MODEL}`).
bool vllm_model_unnamed(const LaunchSpec& spec);

// Comment lines, each starting "# ", on what the command chose and why: the checkpoint MODEL
// must be, the --max-model-len rule.
std::string vllm_comments(const LaunchSpec& spec);

// `mlsize: note:` lines for stderr: a checkpoint to name, a kernel slower than the plan.
std::string vllm_notes(const LaunchSpec& spec);

}  // namespace mlsize::cli
