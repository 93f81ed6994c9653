#include "cli/commands/launch_output.hpp"

#include "cli/options/choice.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/options/workload_options.hpp"
#include "cli/render/render_launch.hpp"

#include <mlsize/launch/launch.hpp>
#include <mlsize/support/number_format.hpp>

namespace mlsize::cli {

void add_emit_option(CLI::App& command, std::optional<std::string>& emit) {
  CLI::App* in = &option_group(command, k_group_output);
  in->add_option("--emit", emit,
                 "Write the plan's launch config instead of the report: " + choice_help(names<LaunchKind>()) +
                     " (docs/launch.md)")
      ->type_name("KIND");
}

void check_emit_format(const std::optional<std::string>& emit, const std::optional<std::string>& format) {
  if (emit && format) {
    flag_error("--format", "--emit writes the launch config; --format applies to the report", "drop one of them");
  }
}

CommandOutput emit_launch(const std::string& kind_text, const Workload& workload, const PlanEstimate& estimate,
                          const CostSettings& cost, const std::string& title, bool region_named) {
  const auto kind = parse_choice<LaunchKind>("--emit", kind_text);
  LaunchSpec spec = launch_spec(workload, estimate, cost);
  if (region_named) spec.regions_alike.clear();  // --region: the user's choice stands
  if (const std::optional<std::string> why = unsupported(kind, spec)) {
    flag_error("--emit", std::string(to_string(kind)) + " cannot launch this plan: " + *why);
  }
  LaunchText text = render_launch(kind, spec, title);
  CommandOutput output;
  output.stdout_text = std::move(text.text);
  output.stderr_text = std::move(text.notes);
  return output;
}

std::string plan_title(const PlanEstimate& estimate) {
  const Plan& plan = estimate.plan;
  std::string title;
  if (plan.offering != nullptr) {
    title = plan.offering->id;
    if (plan.units > 1) title += " ×" + std::to_string(plan.units);
    title += " (" + std::to_string(plan.device_count) + " × " + plan.device->id + ")";
  } else if (plan.device != nullptr) {
    title = std::to_string(plan.device_count) + " × " + plan.device->id;
  }
  if (!estimate.serving) title += ", " + format_duration(estimate.time);
  if (estimate.cost)
    title += ", " + format_usd(*estimate.cost) + (estimate.serving && !estimate.serving->offline ? "/h" : "");
  return title;
}

}  // namespace mlsize::cli
