#pragma once
// The subcommands: each registers its flags and runs from the parsed options.

#include "cli/commands/command.hpp"
#include "cli/options/rule_options.hpp"
#include "cli/options/workload_options.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mlsize::cli {

struct RecommendOptions {
  WorkloadOptions workload;
  std::string optimize = "cost";
  std::string top = "10";
  std::optional<std::string> max_devices;
  std::vector<std::string> providers;           // --provider: only these
  std::vector<std::string> excluded_providers;  // --exclude-provider
  RuleOptions rules;
};

struct ExplainOptions {
  RecommendOptions recommend;
  std::optional<std::string> offering;  // explain this offering only
};

struct EstimateOptions {
  WorkloadOptions workload;
  std::optional<std::string> offering;
  std::optional<std::string> device;
  std::optional<std::string> count;
  std::string zero = "0";
  std::string recompute = "none";
  std::string tensor_parallel = "1";
  std::string pipeline_parallel = "1";
  std::string expert_parallel = "1";
  bool sequence_parallel = false;
  std::string offload = "none";
  bool explain = false;
};

CLI::App* add_recommend_command(CLI::App& app, RecommendOptions& options);
CommandOutput run_recommend(const RecommendOptions& options);

CLI::App* add_explain_command(CLI::App& app, ExplainOptions& options);
CommandOutput run_explain(const ExplainOptions& options);

CLI::App* add_estimate_command(CLI::App& app, EstimateOptions& options);
CommandOutput run_estimate(const EstimateOptions& options);

}  // namespace mlsize::cli
