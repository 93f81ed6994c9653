#pragma once
// --emit KIND on recommend and estimate: the plan's launch config in place of the report
// (docs/launch.md).

#include "cli/commands/command.hpp"

#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/model/workload.hpp>

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace mlsize::cli {

void add_emit_option(CLI::App& command, std::optional<std::string>& emit);

// Throws a usage error when --format was given too: the config is the output.
void check_emit_format(const std::optional<std::string>& emit, const std::optional<std::string>& format);

// `estimate`'s launch config of kind `kind_text` (--emit's value); `title` names the plan in
// its comments; `region_named`: --region was given, and the task keeps to it. Throws a usage
// error naming the kinds that can launch it when this one cannot.
CommandOutput emit_launch(const std::string& kind_text, const Workload& workload, const PlanEstimate& estimate,
                          const CostSettings& cost, const std::string& title, bool region_named);

// "aws-p5.48xlarge ×2 (16 × h100-sxm), 3.2 days, $12,345": the plan in a line.
std::string plan_title(const PlanEstimate& estimate);

}  // namespace mlsize::cli
