#pragma once
// The subcommands: each registers its flags and runs from the parsed options.

#include "cli/commands/command.hpp"
#include "cli/options/hardware_filter.hpp"
#include "cli/options/here_options.hpp"
#include "cli/options/rule_options.hpp"
#include "cli/options/workload_options.hpp"
#include "cli/render/provenance.hpp"

#include <mlsize/estimate/plan.hpp>

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
  bool no_marketplace = false;                  // --no-marketplace
  HardwareOptions hardware;                     // --device, --gpus, --kind, --min-memory
  HereOptions here;                             // --here, --from: this machine only
  bool include_purchase = false;
  bool verbose = false;  // --verbose: tips among the advice
  bool wide = false;     // --wide: names in the table, no wrapping
  std::optional<std::string> max_run_time;
  RuleOptions rules;
  std::optional<std::string> emit;  // --emit KIND: the launch config of plan --rank
  std::optional<std::string> rank;
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
  std::optional<std::string> shard_group;
  bool sequence_parallel = false;
  std::optional<std::string> offload;
  bool external_memory = false;  // --task gbdt on one GPU: XGBoost's ExtMemQuantileDMatrix
  bool explain = false;
  bool wide = false;                // --wide: every column, lines not wrapped
  std::optional<std::string> emit;  // --emit KIND: the plan's launch config
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
// Estimate's hardware and plan flags (--offering ... --offload), which calibrate shares,
// and the plan they give.
void add_plan_options(CLI::App* command, EstimateOptions& options);
Plan plan_from_options(const EstimateOptions& options, const Catalog& catalog);

// calibrate: estimate's flags, and the measured run (docs/cli.md#calibrate).
struct CalibrateOptions {
  EstimateOptions estimate;
  std::string measured;             // --measured FILE
  std::optional<std::string> date;  // --date YYYY-MM-DD, else the log's
};
CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options, bool with_options = true);
CommandOutput run_calibrate(const CalibrateOptions& options);

}  // namespace mlsize::cli
