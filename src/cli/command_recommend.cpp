#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/renderers.hpp"

#include <mlsize/error.hpp>
#include <mlsize/ranker.hpp>

namespace mlsize::cli {

CLI::App* add_recommend_command(CLI::App& app, RecommendOptions& options) {
  CLI::App* command = app.add_subcommand("recommend", "Rank hardware plans for a training workload");
  add_workload_options(*command, options.workload);
  command->add_option("--optimize", options.optimize, "cost | time | balanced (default cost)");
  command->add_option("--top", options.top, "How many recommendations to show (default 10)");
  command->add_option("--max-devices", options.max_devices, "Most devices in one plan (default 512)");
  return command;
}

CommandOutput run_recommend(const RecommendOptions& options) {
  RecommendSettings settings;
  const Workload workload = build_workload(options.workload);
  settings.cost = build_cost_settings(options.workload);
  if (auto objective = parse_objective(options.optimize)) {
    settings.objective = *objective;
  } else {
    flag_error("--optimize", "\"" + options.optimize + "\" is not one of cost, time, balanced");
  }
  const int top = parse_int_flag(options.top, "--top", 1, 100000);
  if (options.max_devices) {
    settings.max_devices = parse_int_flag(*options.max_devices, "--max-devices", 1, 1'000'000);
  }
  check_format(options.workload);
  const Catalog catalog = build_catalog(options.workload);
  const Report report = recommend(workload, catalog, settings);

  CommandOutput output;
  output.stdout_text = options.workload.format == "json" ? render_recommend_json(report, top)
                                                         : render_recommend_table(report, top);
  if (report.recommendations.empty()) {
    output.exit_code = k_exit_no_feasible;
    output.stderr_text = "mlsize: " + summary_sentence(report) + "\n";
  }
  return output;
}

}  // namespace mlsize::cli
