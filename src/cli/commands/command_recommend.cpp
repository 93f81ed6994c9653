#include "cli/commands/commands.hpp"
#include "cli/commands/launch_output.hpp"
#include "cli/commands/report_formats.hpp"
#include "cli/io/output_width.hpp"
#include "cli/options/choice.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/options/providers.hpp"
#include "cli/options/serving_options.hpp"
#include "cli/options/task_flags.hpp"
#include "cli/render/renderers.hpp"
#include "cli/support/kept.hpp"

#include <mlsize/rank/ranker.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/number_format.hpp>
#include <mlsize/support/quantity.hpp>
#include <mlsize/support/text_distance.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace mlsize::cli {

namespace {

constexpr int k_default_top = 10;  // recommendations shown

void add_recommend_options(CLI::App& command, RecommendOptions& options) {
  add_workload_options(command, options.workload);
  const RecommendSettings defaults;
  CLI::App* in = &option_group(command, k_group_constraints);
  in->add_option("--optimize", options.optimize, choice_help(defaults.objective))->type_name("OBJECTIVE");
  in = &option_group(command, k_group_output);
  in->add_option("--top", options.top,
                 "How many recommendations to show (default " + std::to_string(k_default_top) + ")")
      ->type_name("N");
  in = &option_group(command, k_group_hardware);
  in->add_option("--max-devices", options.max_devices,
                 "Most devices in one plan (default " + std::to_string(defaults.max_devices) + ")")
      ->type_name("N");
  in->add_option("--provider", options.providers, "Only offerings of this provider, e.g. aws; repeatable")
      ->type_name("PROVIDER");
  in->add_option("--exclude-provider", options.excluded_providers,
                 "Leave out the offerings of this provider; repeatable")
      ->type_name("PROVIDER");
  in->add_flag("--no-marketplace", options.no_marketplace,
               "Leave out marketplaces' offerings (Vast: single hosts' listings, each kept by its host)");
  add_hardware_options(command, options.hardware, true);
  add_here_options(*in, options.here);
  in->add_flag("--include-purchase", options.include_purchase,
               "Also rank on-premise hardware to buy, at its amortised cost (--budget then checks the "
               "purchase price)");
  in = &option_group(command, k_group_constraints);
  in->add_option("--max-run-time", options.max_run_time,
                 "Without --deadline, leave out plans longer than this, e.g. 90d (default " +
                     format_general(k_default_max_run_time_days) + "d)")
      ->type_name("DURATION");
  in = &option_group(command, k_group_output);
  in->add_flag("--wide", options.wide, "Table: device and offering names, lines not wrapped");
  in->add_flag("--verbose", options.verbose,
               "Every note under the table in full (a line per row), and the rules' general tips");
  add_rule_options(command, options.rules);
}

// A count asked for with --gpus is the user's choice, not a search: above the default
// --max-devices it raises the limit; above a --max-devices the user gave it contradicts it.
void apply_device_counts(RecommendSettings& settings, bool max_devices_given) {
  for (const auto& [id, counts] : settings.device_counts) {
    for (int count : counts) {
      if (count <= settings.max_devices) continue;
      if (max_devices_given) {
        flag_error("--gpus",
                   id + ":" + std::to_string(count) + " asks for more devices than --max-devices " +
                       std::to_string(settings.max_devices),
                   "raise --max-devices, or leave it out: --gpus counts set the plan's size");
      }
      settings.max_devices = count;
    }
  }
}

// --here ranks the machine alone: the flags that choose other hardware contradict it.
void check_here_flags(const RecommendOptions& options) {
  const HardwareOptions& h = options.hardware;
  const std::pair<bool, const char*> others[] = {{!h.devices.empty(), "--device"},
                                                 {!h.gpus.empty(), "--gpus"},
                                                 {h.kind.has_value(), "--kind"},
                                                 {h.min_memory.has_value(), "--min-memory"},
                                                 {!options.providers.empty(), "--provider"},
                                                 {!options.excluded_providers.empty(), "--exclude-provider"},
                                                 {options.no_marketplace, "--no-marketplace"},
                                                 {options.include_purchase, "--include-purchase"},
                                                 {!options.workload.owned.empty(), "--owned"}};
  for (const auto& [given, flag] : others) {
    if (given) {
      flag_error(flag, std::string(flag) + " chooses other hardware; --here ranks this machine only",
                 "drop one of them: mlsize detect shows what --here plans on");
    }
  }
}

// The offerings to rank: the wanted providers' with the wanted hardware. A filter that leaves
// nothing is a question the catalogue cannot answer, not "nothing fits".
Catalog filtered_catalog(const RecommendOptions& options, Catalog full_catalog, RecommendSettings& settings,
                         std::string& notes) {
  const HardwareFilter hardware(options.hardware, full_catalog);
  notes += hardware.notes();
  settings.device_counts = hardware.device_counts();
  apply_device_counts(settings, options.max_devices.has_value());
  Catalog catalog = filter_hardware(
      filter_providers(std::move(full_catalog), options.providers, options.no_marketplace, options.excluded_providers),
      hardware);
  if (catalog.offerings().empty() && !hardware.keeps_all()) {
    const HardwareOptions& h = options.hardware;
    const std::string flag = !h.devices.empty() ? "--device"
                             : !h.gpus.empty()  ? "--gpus"
                             : h.kind           ? "--kind"
                                                : "--min-memory";
    flag_error(flag, "no offering in the catalogue (with the providers asked for) has such hardware",
               "mlsize catalog list shows the offerings; add your own with --catalog FILE");
  }
  return catalog;
}

// Everything a recommendation needs; the report points into the catalogue and rules.
struct RecommendRun {
  Catalog catalog;
  RuleSet rules;
  Report report;
  int top = k_default_top;
  OutputFormat format = k_report_formats.front();
  std::string warnings;  // flags the task ignores (task_flag_warnings)
  Provenance provenance;
};

// `all_notes`: every recommendation gets its rule notes, not only the --top shown (explain
// --offering explains any).
std::unique_ptr<RecommendRun> run_recommendation(const RecommendOptions& options, bool all_notes = false) {
  auto run = std::make_unique<RecommendRun>();
  RecommendSettings settings;
  Workload workload = build_workload(options.workload);
  size_without_load(options.workload, workload);
  run->warnings = task_flag_warnings(options.workload, workload);
  if (options.optimize) settings.objective = parse_choice<Objective>("--optimize", *options.optimize);
  if (options.top) run->top = parse_int_flag(*options.top, "--top", 1, 100000);
  if (options.max_devices) {
    settings.max_devices = parse_int_flag(*options.max_devices, "--max-devices", 1, 1'000'000);
  }
  if (options.include_purchase && workload.serving && !workload.serving->offline()) {
    flag_error("--include-purchase", "buying is weighed against renting for a run, not for a service",
               "drop it; --owned ranks hardware you have at its electricity");
  }
  settings.include_purchase = options.include_purchase;
  settings.advice_from = static_cast<std::size_t>(run->top);
  settings.alternatives_for = static_cast<std::size_t>(run->top);
  if (!all_notes) settings.notes_for = static_cast<std::size_t>(run->top);
  settings.tips = options.verbose;
  // One planning thread per core (the report is the same for any number).
  settings.threads = std::max(1u, std::thread::hardware_concurrency());
  settings.precision_per_device = !options.workload.precision;
  if (options.max_run_time) {
    settings.max_run_time = parse_flag("--max-run-time", [&] { return parse_duration(*options.max_run_time); });
  }
  run->format = report_format(options.workload);
  std::vector<std::string> overlays;
  Catalog full_catalog = build_catalog(options.workload, &overlays);
  run->provenance = provenance_of(full_catalog, std::move(overlays), options.rules.rule_files);
  run->provenance.defaults = default_settings(options.workload.defaults);
  settings.cost = build_cost_settings(options.workload, full_catalog);
  full_catalog = priced_catalog(options.workload, std::move(full_catalog), settings.cost);
  run->provenance.today = prices_today(options.workload);
  run->provenance.max_price_age_months = max_price_age_months(options.workload);
  run->provenance.region = options.workload.region.value_or("");
  settings.calibrations = build_calibrations(options.workload, full_catalog);
  for (const Calibration& c : settings.calibrations) run->provenance.calibrations.push_back(c.file);
  check_from_needs_here(options.here);
  if (options.here.here) {
    check_here_flags(options);
    HereRun here = here_run(options.here, full_catalog);
    check_here_workload(here.hardware, workload);
    drop_cloud_setup(workload, options.workload.setup_time.has_value());
    settings.cost.owned.insert(std::string(k_here_offering));
    run->warnings += here.notes;
    run->catalog = std::move(here.catalog);
  } else {
    run->catalog = filtered_catalog(options, std::move(full_catalog), settings, run->warnings);
  }
  run->rules = build_rule_set(options.rules);
  settings.rules = &run->rules;
  run->report = recommend(workload, run->catalog, settings);
  return run;
}

// A word as the shell reads it back: bare when it is plain, else in single quotes.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("._:/=@%+,-").find(c) != std::string_view::npos;
  });
  if (plain) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The `mlsize estimate` command that shows #1 in full: the workload's words as typed,
// without recommend's own flags, then the plan's hardware and strategy and --explain.
std::string next_command(const std::vector<std::string>& words, const Report& report, std::size_t width) {
  if (report.recommendations.empty()) return {};
  // recommend's flags that estimate does not take (or that the plan sets), with whether
  // they take values; repeatable ones may take several.
  static const std::map<std::string, bool, std::less<>> k_dropped{{"--optimize", true},
                                                                  {"--top", true},
                                                                  {"--max-devices", true},
                                                                  {"--provider", true},
                                                                  {"--exclude-provider", true},
                                                                  {"--device", true},
                                                                  {"--gpus", true},
                                                                  {"--kind", true},
                                                                  {"--min-memory", true},
                                                                  {"--max-run-time", true},
                                                                  {"--rules", true},
                                                                  {"--format", true},
                                                                  {"--output", true},
                                                                  {"--micro-batch", true},
                                                                  {"--emit", true},
                                                                  {"--rank", true},
                                                                  {"--include-purchase", false},
                                                                  {"--no-marketplace", false},
                                                                  {"--verbose", false},
                                                                  {"--no-default-rules", false},
                                                                  {"--wide", false}};
  std::vector<std::string> kept{"mlsize", "estimate"};
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    const std::string_view flag = std::string_view(word).substr(0, word.find('='));
    const auto dropped = k_dropped.find(flag);
    if (dropped == k_dropped.end()) {
      kept.push_back(shell_word(word));
      continue;
    }
    if (!dropped->second || word.find('=') != std::string::npos) continue;
    ++i;  // its value, whatever it looks like ("-" for --output)
    while (i + 1 < words.size() && !words[i + 1].starts_with("-")) ++i;  // a repeatable flag's further values
  }
  const PlanEstimate& e = report.recommendations.front();
  const Strategy& st = e.plan.strategy;
  const auto add = [&](const char* flag, const std::string& value) {
    kept.push_back(flag);
    kept.push_back(shell_word(value));
  };
  // --here, kept among the words, names the machine's offering.
  if (e.plan.offering != nullptr && e.plan.offering->id != k_here_offering) add("--offering", e.plan.offering->id);
  if (e.plan.offering == nullptr) add("--device", e.plan.device->id);
  add("--count", std::to_string(e.plan.device_count));
  if (st.zero_stage > 0) add("--zero", std::to_string(st.zero_stage));
  if (st.hybrid_sharded(e.plan.device_count)) add("--shard-group", std::to_string(st.shard_group));
  if (st.recompute != Recompute::none) add("--recompute", std::string(to_string(st.recompute)));
  if (st.offload != Offload::none) add("--offload", std::string(to_string(st.offload)));
  if (st.tensor_parallel > 1) add("--tp", std::to_string(st.tensor_parallel));
  if (st.pipeline_parallel > 1) add("--pp", std::to_string(st.pipeline_parallel));
  if (st.sequence_parallel) kept.push_back("--sp");
  if (st.expert_parallel > 1) add("--ep", std::to_string(st.expert_parallel));
  if (st.micro_batch > 0) add("--micro-batch", std::to_string(st.micro_batch));
  if (st.trees_external_memory()) kept.push_back("--external-memory");
  if (e.precision != report.workload.precision) add("--precision", std::string(to_string(e.precision)));
  kept.push_back("--explain");
  // Wrapped as the shell reads it back: a backslash before each line break.
  std::string text = "next:";
  std::size_t column = text.size();
  for (const std::string& word : kept) {
    if (width > 0 && column + 1 + word.size() + 2 > width) {
      text += " \\\n     ";
      column = 5;
    }
    text += " " + word;
    column += 1 + word.size();
  }
  return text + "\n";
}

}  // namespace

CLI::App* add_recommend_command(CLI::App& app, RecommendOptions& options, bool with_options) {
  CLI::App* command = app.add_subcommand("recommend", "Rank hardware plans for a workload");
  options.workload.formats = k_chart_report_formats;
  if (!with_options) return command;
  add_recommend_options(*command, options);
  add_emit_option(*command, options.emit);
  option_group(*command, k_group_output)
      .add_option("--rank", options.rank, "With --emit: the plan of this rank (default 1)")
      ->type_name("N");
  command->footer(
      examples({"mlsize recommend --params 7B --data 200GB --budget 20k --deadline 7d",
                "mlsize recommend --model llama-3-8b --task lora --data 1GB --optimize time",
                "mlsize recommend --model llama-2-70b --task inference --rate 20 --ttft 500ms --tpot 50ms"}));
  return command;
}

namespace {

// --emit: the launch config of the plan of --rank, in place of the report.
CommandOutput emit_ranked(const RecommendOptions& options, const RecommendRun& run) {
  const Report& report = run.report;
  const int rank = options.rank ? parse_int_flag(*options.rank, "--rank", 1, 100000) : 1;
  if (report.recommendations.empty()) {
    return {{}, run.warnings + "mlsize: " + summary_sentence(report) + "\n", k_exit_no_feasible};
  }
  if (static_cast<std::size_t>(rank) > report.recommendations.size()) {
    flag_error("--rank", "there are " + std::to_string(report.recommendations.size()) + " recommendations",
               "a rank from 1 to " + std::to_string(report.recommendations.size()));
  }
  const RankedPlan& plan = report.recommendations[static_cast<std::size_t>(rank - 1)];
  const std::string title = "recommendation #" + std::to_string(rank) + ": " + plan_title(plan);
  CommandOutput output =
      emit_launch(*options.emit, report.workload, plan, report.cost, title, options.workload.region.has_value());
  output.stderr_text = run.warnings + output.stderr_text;
  return output;
}

}  // namespace

CommandOutput run_recommend(const RecommendOptions& options) {
  check_emit_format(options.emit, options.workload.format);
  if (options.rank && !options.emit) flag_error("--rank", "--rank picks the plan --emit writes", "add --emit KIND");
  // Kept (cli/support/kept.hpp): the catalogue, rules and report are not freed at exit.
  const std::unique_ptr<RecommendRun>& run = kept(run_recommendation(options));
  if (options.emit) return emit_ranked(options, *run);
  const Report& report = run->report;
  CommandOutput output;
  const bool markdown = run->format == OutputFormat::markdown;
  const TableStyle style{output_width(k_default_width), options.wide || markdown, markdown, options.verbose};
  // Training and batch runs: the command that shows #1 term by term (a fleet for a load
  // has no one-plan estimate).
  const bool has_next = !(report.workload.serving && !report.workload.serving->offline());
  if (run->format == OutputFormat::html) {
    std::string next = has_next ? next_command(options.words, report, 0) : std::string();
    if (next.starts_with("next: ")) next = next.substr(6, next.size() - 7);  // the command alone
    output.stdout_text = render_recommend_html(report, run->top, run->provenance, next);
  } else if (run->format == OutputFormat::table || markdown) {
    output.stdout_text = render_recommend_table(report, run->top, run->provenance, style);
    if (has_next) {
      const std::string next = next_command(options.words, report, style.wide ? 0 : style.width);
      // Markdown: the command in a code span, "next: `mlsize estimate ...`".
      output.stdout_text += !markdown || next.empty() ? next : "\nnext: `" + next.substr(6, next.size() - 7) + "`\n";
    }
  } else {
    // The rows of CSV, TSV: one per recommendation (docs/cli.md#formats).
    output.stdout_text =
        format_document(render_recommend_json(report, run->top, run->provenance), run->format,
                        [](const nlohmann::ordered_json& document) { return rows_of(document["recommendations"]); });
  }
  output.stderr_text = run->warnings;
  if (report.recommendations.empty()) {
    output.exit_code = k_exit_no_feasible;
    output.stderr_text += "mlsize: " + summary_sentence(report) + "\n";
  }
  return output;
}

CLI::App* add_explain_command(CLI::App& app, ExplainOptions& options, bool with_options) {
  CLI::App* command =
      app.add_subcommand("explain", "Show which rules fired on which plans of a recommendation, and what they changed");
  if (!with_options) return command;
  add_recommend_options(*command, options.recommend);
  option_group(*command, k_group_sources)
      .add_option("--offering", options.offering, "Explain this offering only, e.g. aws-p4de.24xlarge")
      ->type_name("ID");
  command->footer(examples({"mlsize explain --params 7B --data 200GB",
                            "mlsize explain --params 7B --data 200GB --offering aws-p5.48xlarge --format json"}));
  return command;
}

CommandOutput run_explain(const ExplainOptions& options) {
  const std::unique_ptr<RecommendRun>& run = kept(run_recommendation(options.recommend, true));
  if (options.offering && run->catalog.find_offering(*options.offering) == nullptr) {
    std::vector<std::string> ids;
    for (const Offering& offering : run->catalog.offerings()) ids.push_back(offering.id);
    flag_error("--offering", "unknown offering \"" + *options.offering + "\"", did_you_mean(*options.offering, ids));
  }
  CommandOutput output;
  if (run->format == OutputFormat::table) {
    output.stdout_text = render_explain_table(run->report, run->rules, options.offering, run->top,
                                              {output_width(k_default_width), options.recommend.wide, false});
  } else {
    // The rows of CSV, TSV and Markdown: one per rule that fired on a plan shown.
    output.stdout_text =
        format_document(render_explain_json(run->report, run->rules, options.offering, run->top, run->provenance),
                        run->format, [](const nlohmann::ordered_json& document) {
                          nlohmann::ordered_json rows = nlohmann::ordered_json::array();
                          for (const auto& plan : document["recommendations"]) {
                            for (const auto& fired : plan["fired"]) {
                              nlohmann::ordered_json row = plan;
                              row.erase("fired");
                              for (const auto& [key, value] : fired.items()) row[key] = value;
                              rows.push_back(std::move(row));
                            }
                          }
                          return rows_of(rows);
                        });
  }
  output.stderr_text = run->warnings;
  return output;
}

}  // namespace mlsize::cli
