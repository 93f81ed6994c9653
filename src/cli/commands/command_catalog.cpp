#include "cli/commands/command_catalog.hpp"

#include "cli/commands/report_formats.hpp"
#include "cli/io/input_file.hpp"
#include "cli/io/output_file.hpp"
#include "cli/io/output_width.hpp"
#include "cli/options/choice.hpp"
#include "cli/options/hardware_filter.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/options/output_format.hpp"
#include "cli/options/providers.hpp"
#include "cli/options/workload_options.hpp"
#include "cli/render/render_catalog.hpp"
#include "cli/support/kept.hpp"

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/compiled_catalog.hpp>
#include <mlsize/catalog/price_import.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/quantity.hpp>
#include <mlsize/support/text_distance.hpp>

#include <algorithm>
#include <array>
#include <set>

namespace mlsize::cli {
namespace {

constexpr std::size_t k_max_header_width = k_default_width;

CatalogSelection select_entries(const CatalogOptions& options, const Catalog& catalog) {
  const HardwareFilter hardware(options.hardware, catalog);
  for (const std::string& provider : options.providers) check_provider("--provider", provider, catalog);
  auto provider_kept = [&](const Offering& offering) {
    return options.providers.empty() ||
           std::find(options.providers.begin(), options.providers.end(), offering.provider) != options.providers.end();
  };

  CatalogSelection selection;
  std::set<const Device*> offered;  // the kept offerings' devices
  for (const Offering& offering : catalog.offerings()) {
    const Device& device = *catalog.find_device(offering.device_id);
    if (provider_kept(offering) && hardware.keeps(offering, device)) {
      selection.offerings.push_back(&offering);
      offered.insert(&device);
    }
  }
  for (const Device& device : catalog.devices()) {
    if (!hardware.keeps(device, device.memory)) continue;
    // With --provider, only the devices those providers offer.
    if (options.providers.empty() || offered.contains(&device)) selection.devices.push_back(&device);
  }
  return selection;
}

// The catalogue a command reads, and where it came from (the JSON's provenance).
struct SourcedCatalog {
  Catalog catalog;
  Provenance provenance;
};

SourcedCatalog sourced_catalog(const CatalogOptions& options) {
  std::vector<std::string> applied;
  SourcedCatalog result{build_catalog(options.catalog_files, !options.no_user_catalog, &applied), {}};
  result.provenance = provenance_of(result.catalog, std::move(applied), {});
  return result;
}

// The entries as JSON, as YAML in the catalogue file's form (an overlay as it is), as
// rows (CSV, TSV, Markdown), or as list's table.
CommandOutput rendered(const CatalogSelection& selection, OutputFormat format, const JsonHeader& header,
                       bool wide = false) {
  CommandOutput output;
  switch (format) {
    case OutputFormat::json: output.stdout_text = render_catalog_json(selection, header); break;
    case OutputFormat::yaml:
      output.stdout_text = render_catalog_yaml(
          selection, "mlsize catalogue: " + std::to_string(selection.devices.size()) + " devices, " +
                         std::to_string(selection.offerings.size()) + " offerings. Schema: docs/catalogue.md.");
      break;
    case OutputFormat::table:
      output.stdout_text = render_catalog_table(selection, {output_width(k_default_width), wide, false});
      break;
    default: output.stdout_text = render_rows(catalog_rows(selection), row_syntax(format)); break;
  }
  return output;
}

CommandOutput run_list(const CatalogOptions& options) {
  const OutputFormat format = parse_format(options.list_format, k_catalog_list_formats);
  const SourcedCatalog& sourced = kept(sourced_catalog(options));  // cli/support/kept.hpp
  const CatalogSelection selection = select_entries(options, sourced.catalog);
  return rendered(selection, format, {"catalog list", sourced.provenance}, options.wide);
}

// A device by id or alias, an offering by id, or both when they share an id.
CommandOutput run_show(const CatalogOptions& options) {
  const OutputFormat format = parse_format(options.show_format, k_catalog_show_formats);
  const SourcedCatalog& sourced = kept(sourced_catalog(options));  // cli/support/kept.hpp
  const Catalog& catalog = sourced.catalog;
  CatalogSelection selection;
  if (const Device* device = catalog.find_device(options.id)) selection.devices.push_back(device);
  if (const Offering* offering = catalog.find_offering(options.id)) selection.offerings.push_back(offering);
  if (selection.devices.empty() && selection.offerings.empty()) {
    std::vector<std::string> ids = catalog.device_names();
    for (const Offering& offering : catalog.offerings()) ids.push_back(offering.id);
    std::string hint = did_you_mean(options.id, ids);
    if (hint.empty()) hint = "list the ids with: mlsize catalog list";
    throw Error(ErrorKind::usage, "no device or offering has the id \"" + options.id + "\"", hint);
  }
  CommandOutput output;
  if (format == OutputFormat::json) {
    output.stdout_text = render_catalog_json(selection, {"catalog show", sourced.provenance});
    return output;
  }
  // A header that says what else refers to the entry; the YAML itself is a valid overlay.
  std::string header;
  for (const Device* device : selection.devices) {
    std::vector<std::string> users;
    for (const Offering& offering : catalog.offerings()) {
      if (catalog.find_device(offering.device_id) == device) users.push_back(offering.id);
    }
    std::string line = "device " + device->id + " is used by " + std::to_string(users.size()) + " offering(s)";
    for (std::size_t i = 0; i < users.size(); ++i) {
      // Wrapped, so that a popular device does not make one very long line.
      if (line.size() + users[i].size() + 4 > k_max_header_width) {  // "# " before, ", " after
        header += line + (i == 0 ? ":" : ",") + "\n";
        line = "  " + users[i];
      } else {
        line += (i == 0 ? ": " : ", ") + users[i];
      }
    }
    header += line + "\n";
  }
  header += "Copy this into a file given with --catalog to override the entry\n(docs/catalogue.md#overlays).";
  output.stdout_text = render_catalog_yaml(selection, header);
  return output;
}

// Each file on top of the embedded catalogue and the files before it; references are
// checked once all are loaded, as for --catalog.
CommandOutput run_validate(const CatalogOptions& options) {
  Catalog catalog = load_default_catalog();
  std::string report;
  for (const OverlayText& overlay : read_overlays(options.files, {})) {
    Catalog own;
    load_overlay(own, overlay);
    report += "ok: " + overlay.path + " (" + std::to_string(own.devices().size()) + " devices, " +
              std::to_string(own.offerings().size()) + " offerings)\n";
    catalog.lay_over(std::move(own));
  }
  catalog.check_references();
  return CommandOutput{report, {}, 0};
}

// Writes `overlay` compiled to `path` (not stdout: the bytes are not text), after checking
// that it lays over `catalog` with every reference resolved; `inputs` must not be `path`.
void write_compiled(Catalog catalog, Catalog&& overlay, const std::string& path, std::vector<std::string> inputs) {
  if (is_standard_output(path)) {
    flag_error("--output", "a compiled catalogue is binary, not for stdout", "the path of the file to write");
  }
  const std::string bytes = write_compiled_catalog(overlay);
  catalog.lay_over(std::move(overlay));
  catalog.check_references();
  OutputGuard guard;
  guard.inputs = std::move(inputs);
  write_output_file(path, bytes, guard);
}

// YAML overlays (or compiled ones) into one compiled catalogue: each file is read and
// validated as --catalog reads it, but with no limit on their sum (docs/catalogue.md#compiled-catalogues).
CommandOutput run_compile(const CatalogOptions& options) {
  Catalog overlay;
  for (const std::string& path : options.files) {
    Catalog own;
    load_overlay(own, read_overlays({path}, {}).front());
    overlay.lay_over(std::move(own));
  }
  const std::size_t devices = overlay.devices().size();
  const std::size_t offerings = overlay.offerings().size();
  std::vector<std::string> inputs = options.files;
  inputs.insert(inputs.end(), options.catalog_files.begin(), options.catalog_files.end());
  write_compiled(build_catalog(options.catalog_files, !options.no_user_catalog), std::move(overlay),
                 options.compile_output, std::move(inputs));
  return CommandOutput{{},
                       "compiled " + std::to_string(options.files.size()) + " file(s): " + std::to_string(devices) +
                           " devices, " + std::to_string(offerings) + " offerings into " + options.compile_output +
                           "\n",
                       0};
}

CommandOutput run_export(const CatalogOptions& options) {
  const OutputFormat format = parse_format(options.export_format, k_catalog_export_formats);
  const SourcedCatalog& sourced = kept(sourced_catalog(options));  // cli/support/kept.hpp
  const CatalogSelection all = select_all(sourced.catalog);
  return rendered(all, format, {"catalog export", sourced.provenance});
}

// Public price files into an overlay of offerings with a price per region; nothing is
// written when a file is not its format or no offering comes out.
CommandOutput run_import(const CatalogOptions& options) {
  const auto format = parse_choice<PriceFormat>("--from", options.import_from);
  const Catalog catalog = options.import_without_refreshed
                              ? load_default_catalog_yaml(false)
                              : build_catalog(options.catalog_files, !options.no_user_catalog);
  // A compiled overlay has no YAML limit (0: none).
  PriceImporter importer(catalog, {options.import_provider,
                                   options.import_as_of,
                                   options.import_cpu_device,
                                   options.import_origin,
                                   {},
                                   options.import_compiled ? 0 : k_max_overlay_bytes});
  for (const std::string& path : options.import_files) {
    importer.add(format, read_input_file(path, k_max_price_file_bytes), path);
  }
  PriceImport imported = importer.result();
  const std::string output_name =
      is_standard_output(options.import_output) ? std::string("stdout") : options.import_output;
  const std::string summary = render_price_import_summary(imported, output_name);
  if (imported.offerings.empty()) {
    throw Error(ErrorKind::input,
                "no offering to write: no row of the " + std::to_string(options.import_files.size()) +
                    " file(s) maps to the catalogue; nothing was written",
                summary.substr(summary.find('\n') + 1) + "see docs/catalogue.md#refreshing-prices-catalog-import");
  }
  const auto too_large = [](std::size_t bytes) {
    return Error(ErrorKind::input,
                 "the overlay would be " + std::to_string(std::max<std::size_t>(bytes / (1024 * 1024), 1)) +
                     " MiB, over the " + std::to_string(k_max_overlay_bytes / (1024 * 1024)) +
                     " MiB a catalogue file may have; nothing was written",
                 "import fewer files at a time (one cloud per overlay), leave out CPU rows (--include-cpu), or "
                 "write a compiled catalogue (--compiled), which has no such limit");
  };
  if (options.import_compiled) {
    std::vector<std::string> inputs = options.import_files;
    inputs.insert(inputs.end(), options.catalog_files.begin(), options.catalog_files.end());
    Catalog overlay;
    overlay.reserve_offerings(imported.offerings.size());
    for (Offering& offering : imported.offerings) overlay.put(std::move(offering));
    write_compiled(catalog, std::move(overlay), options.import_output, std::move(inputs));
    return CommandOutput{{}, summary, 0};
  }
  std::string files;
  for (const std::string& path : options.import_files) files += (files.empty() ? "" : ", ") + path;
  const std::string yaml = render_price_import_yaml(
      imported, "mlsize catalog import --from " + std::string(to_string(format)) + ": " +
                    std::to_string(imported.offerings.size()) + " offerings from " + files + ", prices as of " +
                    options.import_as_of +
                    ".\nUse it with --catalog FILE; an entry replaces the catalogue's entry of "
                    "the same id. Schema: docs/catalogue.md.");
  // Refused before the check below parses it (seconds for a file this size): --catalog would refuse it.
  if (yaml.size() > k_max_overlay_bytes) throw too_large(yaml.size());
  // The overlay must load over the catalogue it was made against: a failure here is a bug
  // of the importer, caught before a file the user would then be unable to use is written.
  Catalog check = catalog;
  load_catalog_yaml(check, yaml, output_name);
  check.check_references();
  CommandOutput output;
  if (is_standard_output(options.import_output)) {
    output.stdout_text = yaml;
  } else {
    // The price files read must not be the overlay written (issue 46).
    OutputGuard guard;
    guard.inputs = options.import_files;
    guard.inputs.insert(guard.inputs.end(), options.catalog_files.begin(), options.catalog_files.end());
    write_output_file(options.import_output, yaml, guard);
  }
  output.stderr_text = summary;
  return output;
}

}  // namespace

CLI::App* add_catalog_command(CLI::App& app, CatalogOptions& options, bool with_options) {
  CLI::App* command = app.add_subcommand("catalog", "List, show, validate or export the hardware catalogue");
  if (!with_options) return command;
  command->require_subcommand(1);
  // A subcommand named by the action's table entry, which sets the action when parsed.
  auto add_action = [&options, command](CatalogAction action, std::string description) {
    CLI::App* sub = command->add_subcommand(std::string(to_string(action)), std::move(description));
    sub->parse_complete_callback([&options, action] { options.action = action; });
    return sub;
  };

  CLI::App* list = add_action(CatalogAction::list, "List devices and offerings, optionally filtered");
  add_catalog_options(*list, options.catalog_files, options.no_user_catalog);
  add_hardware_options(*list, options.hardware, false);
  option_group(*list, k_group_hardware)
      .add_option("--provider", options.providers, "Only this provider's offerings and their devices; repeatable")
      ->type_name("PROVIDER");
  CLI::App* in = &option_group(*list, k_group_output);
  in->add_option("--format", options.list_format, format_help(k_catalog_list_formats))->type_name("FORMAT");
  in->add_flag("--wide", options.wide, "Table: every column, lines not wrapped");

  CLI::App* show = add_action(CatalogAction::show, "Show every field of a device (id or alias) or an offering");
  add_catalog_options(*show, options.catalog_files, options.no_user_catalog);
  show->add_option("id", options.id, "A device id or alias, or an offering id")->type_name("ID")->required();
  in = &option_group(*show, k_group_output);
  in->add_option("--format", options.show_format, format_help(k_catalog_show_formats))->type_name("FORMAT");

  CLI::App* validate = add_action(CatalogAction::validate, "Check catalogue files against the schema");
  validate->add_option("files", options.files, "Catalogue YAML files or compiled catalogues")
      ->type_name("FILE")
      ->required();

  CLI::App* export_command = add_action(CatalogAction::export_, "Write the whole catalogue (with overlays)");
  add_catalog_options(*export_command, options.catalog_files, options.no_user_catalog);
  in = &option_group(*export_command, k_group_output);
  in->add_option("--format", options.export_format, format_help(k_catalog_export_formats))->type_name("FORMAT");
  CLI::App* import = add_action(CatalogAction::import_, "Make an overlay from public price files (offline)");
  import->add_option("--from", options.import_from, "The files' format: " + choice_help(names<PriceFormat>()))
      ->type_name("FORMAT")
      ->required();
  import->add_option("files", options.import_files, "Price files: SkyPilot vms.csv, or Azure Retail Prices pages")
      ->type_name("FILE")
      ->required();
  import
      ->add_option("--as-of", options.import_as_of,
                   "The date of the prices, YYYY-MM-DD (required: the files state none)")
      ->type_name("DATE");
  import
      ->add_option("--provider", options.import_provider,
                   "The offerings' provider (default: the file's folder, as in skypilot-catalog's aws/vms.csv; "
                   "azure for Azure pages)")
      ->type_name("PROVIDER");
  import
      ->add_option("--include-cpu", options.import_cpu_device,
                   "Import rows without an accelerator as offerings of this CPU device (default: skip them)")
      ->type_name("DEVICE");
  import
      ->add_option("--origin", options.import_origin,
                   "Where the files come from, written before each offering's source (e.g. "
                   "skypilot-org/skypilot-catalog@2c3d7ea7 catalogs/v9)")
      ->type_name("TEXT");
  import->add_flag("--without-refreshed-prices", options.import_without_refreshed,
                   "Import against the hand-written embedded entries only, not the refreshed prices compiled in "
                   "(scripts/refresh-catalog.py; no overlays are read)");
  add_catalog_options(*import, options.catalog_files, options.no_user_catalog);
  in = &option_group(*import, k_group_output);
  in->add_option("-o,--output", options.import_output,
                 "The overlay to write (a file atomically; a device or FIFO in place; '-' for stdout)")
      ->type_name("FILE")
      ->required();
  in->add_flag(
      "--compiled", options.import_compiled,
      "Write a compiled catalogue, for any number of offerings, not YAML (docs/catalogue.md#compiled-catalogues)");

  CLI::App* compile =
      add_action(CatalogAction::compile, "Compile overlays into one catalogue --catalog reads at any size");
  compile->add_option("files", options.files, "Catalogue YAML files (or compiled catalogues), later over earlier")
      ->type_name("FILE")
      ->required();
  add_catalog_options(*compile, options.catalog_files, options.no_user_catalog);
  in = &option_group(*compile, k_group_output);
  in->add_option("-o,--output", options.compile_output,
                 "The compiled catalogue to write (a file atomically; a device or FIFO in place)")
      ->type_name("FILE")
      ->required();
  command->footer(examples({"mlsize catalog list --kind gpu --min-memory 80GB", "mlsize catalog show h100",
                            "mlsize catalog export --format csv > catalog.csv",
                            "mlsize catalog import --from skypilot aws/vms.csv --as-of 2026-12-01 --output aws.yaml"}));
  return command;
}

CommandOutput run_catalog(const CatalogOptions& options) {
  switch (options.action) {
    case CatalogAction::list: return run_list(options);
    case CatalogAction::show: return run_show(options);
    case CatalogAction::validate: return run_validate(options);
    case CatalogAction::export_: return run_export(options);
    case CatalogAction::import_: return run_import(options);
    case CatalogAction::compile: return run_compile(options);
  }
  return run_list(options);
}

}  // namespace mlsize::cli
