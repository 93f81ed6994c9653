#include "cli/commands/command_detect.hpp"

#include "cli/io/output_width.hpp"
#include "cli/options/catalog_options.hpp"
#include "cli/options/here_options.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/options/output_format.hpp"
#include "cli/render/render_detect.hpp"
#include "cli/render/render_rows.hpp"
#include "cli/render/text_table.hpp"

#include <mlsize/support/error.hpp>

namespace mlsize::cli {

CLI::App* add_detect_command(CLI::App& app, DetectOptions& options, bool with_options) {
  CLI::App* command = app.add_subcommand("detect", "List this machine's GPUs, CPU and RAM as catalogue devices");
  if (!with_options) return command;
  CLI::App* in = &option_group(*command, k_group_hardware);
  add_from_option(*in, options.from, "Read the machine recorded in DIR instead (docs/cli.md#detect)");
  add_catalog_options(*command, options.catalog_files, options.no_user_catalog);
  in = &option_group(*command, k_group_output);
  in->add_option("--format", options.format, format_help(k_detect_formats))->type_name("FORMAT");
  command->footer(examples({"mlsize detect", "mlsize detect --format json"}) +
                  "\n\nmlsize recommend --here and mlsize estimate --here plan on the machine that\ndetect lists.");
  return command;
}

CommandOutput run_detect(const DetectOptions& options) {
  const OutputFormat format = parse_format(options.format, k_detect_formats);
  std::vector<std::string> applied;
  const Catalog catalog = build_catalog(options.catalog_files, !options.no_user_catalog, &applied);
  DetectResult result;
  result.origin = machine_origin(options.from);
  result.machine = detect_machine(options.from, catalog);
  result.provenance = provenance_of(catalog, std::move(applied), {});
  try {
    result.here = here_hardware(result.machine, result.origin);
  } catch (const Error& error) {
    // Nothing to plan on is a fact about the machine, not a failure of detect.
    result.here_problem = error.message() + (error.hint().empty() ? "" : " (" + error.hint() + ")");
  }
  CommandOutput output;
  if (format == OutputFormat::table) {
    output.stdout_text = render_detect_table(result, output_width(k_default_width));
  } else {
    const std::string json = render_detect_json(result);
    output.stdout_text = format == OutputFormat::json ? json : render_yaml(nlohmann::ordered_json::parse(json));
  }
  return output;
}

}  // namespace mlsize::cli
