#pragma once
// The subcommands: each registers its flags and runs from the parsed options.

#include "cli/commands/command.hpp"
#include "cli/options/hardware_filter.hpp"
#include "cli/options/here_options.hpp"
#include "cli/options/rule_options.hpp"
#include "cli/options/workload_options.hpp"
#include "cli/render/provenance.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mlsize::cli {

// The team's defaults as provenance records them.
inline std::vector<DefaultSetting> default_settings(const std::vector<AppliedDefault>& defaults) {
  std::vector<DefaultSetting> settings;
  for (const AppliedDefault& d : defaults) settings.push_back({d.flag, d.value, d.origin});
  return settings;
}

struct RecommendOptions {
  WorkloadOptions workload;
  std::optional<std::string> optimize;
  std::optional<std::string> top;
  std::optional<std::string> max_devices;
  std::vector<std::string> providers;           // --provider: only these
  std::vector<std::string> excluded_providers;  // --exclude-provider
  HardwareOptions hardware;                     // --device, --gpus, --kind, --min-memory
  HereOptions here;                             // --here, --from: this machine only
  bool include_purchase = false;
  bool verbose = false;  // --verbose: tips among the advice
  bool wide = false;     // --wide: names in the table, no wrapping
  std::optional<std::string> max_run_time;
  RuleOptions rules;
  // The words after `recommend` as typed, for the `next:` command that estimates #1.
  std::vector<std::string> words;
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
  std::optional<std::string> gpus;  // --gpus ACC[:N]: shorthand for --device ACC --count N
  HereOptions here;                 // --here, --from: this machine's devices, owned
  // Strategy{} holds the defaults of the plan's layout.
  std::optional<std::string> zero;
  std::optional<std::string> recompute;
  std::optional<std::string> tensor_parallel;
  std::optional<std::string> pipeline_parallel;
  std::optional<std::string> expert_parallel;
  bool sequence_parallel = false;
  std::optional<std::string> offload;
  bool explain = false;
};

// Each add_*_command adds its subcommand; with `with_options` false, only its name and
// description: the commands not being run need no more (building every command's options
// costs more than the rest of `mlsize --version`).
CLI::App* add_recommend_command(CLI::App& app, RecommendOptions& options, bool with_options = true);
CommandOutput run_recommend(const RecommendOptions& options);

CLI::App* add_explain_command(CLI::App& app, ExplainOptions& options, bool with_options = true);
CommandOutput run_explain(const ExplainOptions& options);

CLI::App* add_estimate_command(CLI::App& app, EstimateOptions& options, bool with_options = true);
CommandOutput run_estimate(const EstimateOptions& options);

}  // namespace mlsize::cli
