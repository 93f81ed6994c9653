#include "cli/app.hpp"

#include "cli/commands/command_catalog.hpp"
#include "cli/commands/command_completion.hpp"
#include "cli/commands/command_detect.hpp"
#include "cli/commands/command_rules.hpp"
#include "cli/commands/commands.hpp"
#include "cli/io/output_file.hpp"
#include "cli/io/output_width.hpp"
#include "cli/io/pager.hpp"
#include "cli/options/option_conventions.hpp"
#include "cli/render/error_message.hpp"
#include "cli/render/format.hpp"
#include "cli/render/provenance.hpp"
#include "cli/support/kept.hpp"

#include <mlsize/support/error.hpp>
#include <mlsize/support/text_distance.hpp>
#include <mlsize/support/utf8.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize::cli {
namespace {

// Writes all of `text`; the errno of a failed write or flush, 0 when it all went out.
int write(std::FILE* stream, const std::string& text) {
  errno = 0;
  const bool written = std::fwrite(text.data(), 1, text.size(), stream) == text.size();
  if (std::fflush(stream) == 0 && written && std::ferror(stream) == 0) return 0;
  return errno != 0 ? errno : EIO;
}

// Messages on stderr: wrapped to the terminal's width when stderr is one, a line each
// otherwise, so that logs and grep keep whole messages (docs/cli.md#width).
int write_err(std::FILE* err, const std::string& text) {
  const std::optional<std::size_t> columns = terminal_columns(::fileno(err));
  return write(err, columns ? wrap_prose(text, std::max(*columns, k_min_width)) : text);
}

// The report on stdout. A reader that closed early (`mlsize ... | head`) ends the run
// quietly, as it asked; any other failure (a full disk, a closed descriptor) loses the
// report, which must not exit 0.
// On a terminal the report overflows, it goes through the pager unless `paging` is off
// (--no-pager; io/pager.hpp).
int write_report(std::FILE* out, std::FILE* err, const CommandOutput& output, bool paging) {
  // Clean text, nearly every report, is written as it is, not copied (issue 49).
  std::string escaped;
  const bool clean = !needs_terminal_escapes(output.stdout_text);
  if (!clean) escaped = terminal_text(output.stdout_text);
  const std::string& text = clean ? output.stdout_text : escaped;
  if (paging) {
    if (const std::optional<std::string> pager = pager_for(out, text); pager && write_through_pager(*pager, text)) {
      if (!output.stderr_text.empty()) write_err(err, terminal_text(output.stderr_text));
      return output.exit_code;
    }
  }
  if (const int failure = write(out, text); failure != 0) {
    if (failure == EPIPE) return k_exit_success;
    write_err(err, std::string("mlsize: error: write error: ") + std::strerror(failure) + "\n");
    return k_exit_error;
  }
  if (!output.stderr_text.empty()) write_err(err, terminal_text(output.stderr_text));
  return output.exit_code;
}

constexpr std::array<std::string_view, 8> k_commands{"recommend", "estimate", "catalog",    "explain",
                                                     "rules",     "detect",   "completion", "calibrate"};
// The commands that only group others (`catalog list`, `rules check`).
constexpr std::array<std::string_view, 2> k_command_groups{"catalog", "rules"};

// The habits of other tools, as the arguments CLI11 parses: `mlsize` alone and `mlsize
// help [COMMAND]` print help, `mlsize version` and `-V` the version. A first word that is
// no command is a usage error with the nearest command.
std::vector<const char*> with_habits(int argc, const char* const* argv) {
  std::vector<const char*> args(argv, argv + std::max(argc, 0));
  if (args.empty()) args.push_back("mlsize");
  if (args.size() == 1) {
    args.push_back("--help");
    return args;
  }
  const std::string_view first = args[1] != nullptr ? std::string_view(args[1]) : std::string_view();
  // A command group alone prints its help and exits 0, as `kubectl config` and `gh repo` do.
  if (args.size() == 2 &&
      std::find(k_command_groups.begin(), k_command_groups.end(), first) != k_command_groups.end()) {
    args.push_back("--help");
    return args;
  }
  if (first == "help") {
    if (args.size() > 2) {
      args.erase(args.begin() + 1);
      args.insert(args.begin() + 2, "--help");
      args.resize(3);
    } else {
      args[1] = "--help";
    }
  } else if (first == "version" || first == "-V") {
    args.resize(2);
    args[1] = "--version";
  } else if (!first.empty() && first.front() != '-' &&
             std::find(k_commands.begin(), k_commands.end(), first) == k_commands.end()) {
    const std::string hint = did_you_mean(first, std::span<const std::string_view>(k_commands));
    throw Error(ErrorKind::usage, "unknown command \"" + escape_unprintable(first) + "\"",
                hint.empty()
                    ? "commands: recommend, estimate, catalog, explain, rules, detect, completion, calibrate (mlsize "
                      "--help)"
                    : hint);
  }
  return args;
}

int run_command(int argc, const char* const* argv, std::FILE* out, std::FILE* err, bool json_errors, bool paging);

// --format json on the command line: errors are then a JSON object on stderr (issue 51;
// docs/cli.md#errors-under---format-json), whatever stage finds them, the flags' parsing included.
bool asks_json(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i] == nullptr ? std::string_view() : std::string_view(argv[i]);
    if (arg == "--format=json" ||
        (arg == "--format" && i + 1 < argc && argv[i + 1] != nullptr && std::string_view(argv[i + 1]) == "json")) {
      return true;
    }
  }
  return false;
}

// An error on stderr, as text or JSON; returns the exit code it is for.
int report_error(std::FILE* err, const Error& error, bool json) {
  const int code = error.kind() == ErrorKind::usage ? k_exit_usage : k_exit_error;
  if (json) {
    write(err, format_error_json(error, code));
  } else {
    write_err(err, format_error(error));
  }
  return code;
}

int report_failure(std::FILE* err, std::string_view code, const std::string& message, bool json) {
  if (json) {
    write(err, format_failure_json(code, message, k_exit_error));
  } else {
    write_err(err, "mlsize: error: " + message + "\n");
  }
  return k_exit_error;
}

// Every command's options, which the parse fills, and the commands added for them.
struct Commands {
  RecommendOptions recommend_options;
  EstimateOptions estimate_options;
  CatalogOptions catalog_options;
  ExplainOptions explain_options;
  RulesOptions rules_options;
  DetectOptions detect_options;
  CompletionOptions completion_options;
  CalibrateOptions calibrate_options;
  CLI::App* recommend = nullptr;
  CLI::App* estimate = nullptr;
  CLI::App* catalog = nullptr;
  CLI::App* explain = nullptr;
  CLI::App* rules = nullptr;
  CLI::App* detect = nullptr;
  CLI::App* completion = nullptr;
  CLI::App* calibrate = nullptr;
};

// The commands on `app`; those for which `full(name)` is false get their names only.
template <class Full>
void add_commands(CLI::App& app, Commands& c, Full full) {
  c.recommend = add_recommend_command(app, c.recommend_options, full("recommend"));
  c.estimate = add_estimate_command(app, c.estimate_options, full("estimate"));
  c.catalog = add_catalog_command(app, c.catalog_options, full("catalog"));
  c.explain = add_explain_command(app, c.explain_options, full("explain"));
  c.rules = add_rules_command(app, c.rules_options, full("rules"));
  c.detect = add_detect_command(app, c.detect_options, full("detect"));
  c.completion = add_completion_command(app, c.completion_options, full("completion"));
  c.calibrate = add_calibrate_command(app, c.calibrate_options, full("calibrate"));
}

// The command lines ("mlsize estimate", "mlsize catalog list") whose options include `flag`.
std::vector<std::string> commands_with_flag(std::string_view flag) {
  CLI::App app;
  Commands commands;
  add_commands(app, commands, [](std::string_view) { return true; });
  std::vector<std::string> owners;
  const auto visit = [&](const auto& self, const CLI::App& command, const std::string& line) -> void {
    for (const CLI::Option* option : all_options(command)) {
      for (const std::string& name : option->get_lnames()) {
        if ("--" + name == flag) owners.push_back(line);
      }
    }
    for (const CLI::App* sub : commands_of(command)) self(self, *sub, line + " " + sub->get_name());
  };
  for (const CLI::App* command : commands_of(app)) visit(visit, *command, "mlsize " + command->get_name());
  return owners;
}

// The deepest command the parse reached: `catalog list`, not `catalog`.
const CLI::App* deepest_command(const CLI::App& app) {
  const CLI::App* command = &app;
  while (!command->get_subcommands().empty()) command = command->get_subcommands().front();
  return command == &app ? nullptr : command;
}

// "mlsize catalog list" for `catalog list`.
std::string command_line(const CLI::App& command) {
  std::string line = command.get_name();
  for (const CLI::App* parent = command.get_parent(); parent != nullptr; parent = parent->get_parent()) {
    line.insert(0, parent->get_name() + " ");
  }
  return line;
}

// A usage error's two lines, as written to stderr.
struct UsageText {
  std::string message;
  std::string hint;
};

// For CLI11's "The following argument(s) was/were not expected: --optimise ...": where
// another command takes the flag, says so ("mlsize recommend has no option --zero", with
// the command that has it); else the command's flag nearest it ("did you mean
// \"--optimize\"?"); else CLI11's message with no hint.
UsageText nearest_flag(const CLI::App& command, std::string_view message, std::span<const char* const> args) {
  const std::size_t colon = message.find("not expected: ");
  if (colon == std::string_view::npos) return {std::string(message), {}};
  // The extras are listed space-separated, values before their flags ("time --optimise").
  std::string_view rest = message.substr(colon + 14);
  std::string_view extra;
  while (!rest.empty() && extra.empty()) {
    const std::string_view word = rest.substr(0, rest.find(' '));
    if (word.starts_with("--")) extra = word.substr(0, word.find('='));
    rest.remove_prefix(std::min(rest.size(), word.size() + 1));
  }
  if (extra.empty()) return {std::string(message), {}};
  if (const std::vector<std::string> owners = commands_with_flag(extra); !owners.empty()) {
    // The flag with its value as given, for a line to copy.
    std::string given(extra);
    const auto at = std::find_if(args.begin(), args.end(), [&](const char* arg) {
      return arg != nullptr && (std::string_view(arg) == extra || std::string_view(arg).starts_with(given + "="));
    });
    if (at != args.end()) {
      given = *at;
      if (given == extra && at + 1 != args.end() && *(at + 1) != nullptr && *(at + 1)[0] != '-') {
        given += " " + std::string(*(at + 1));
      }
    }
    std::string hint = std::string(extra) + " is an option of ";
    for (std::size_t i = 0; i < owners.size(); ++i)
      hint += (i == 0 ? "" : i + 1 == owners.size() ? " and " : ", ") + owners[i];
    return {command_line(command) + " has no option " + std::string(extra),
            hint + ": " + owners.front() + " ... " + given};
  }
  std::vector<std::string> flags;
  for (const CLI::Option* option : all_options(command)) {
    for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
  }
  return {std::string(message), did_you_mean(extra, flags)};
}

}  // namespace

int run(int argc, const char* const* argv, std::FILE* out, std::FILE* err) {
  struct EndCommand {
    EndCommand() = default;
    EndCommand(const EndCommand&) = delete;
    EndCommand& operator=(const EndCommand&) = delete;
    ~EndCommand() { end_command(); }
  } const ends_command;
  std::vector<const char*> args;
  const bool json_errors = asks_json(argc, argv);
  try {
    args = with_habits(argc, argv);
  } catch (const Error& error) {
    return report_error(err, error, json_errors);
  }
  // --no-pager, anywhere after the command: the report straight to the terminal (as git's).
  const auto no_pager = std::remove_if(args.begin() + 1, args.end(), [](const char* arg) {
    return arg != nullptr && std::string_view(arg) == "--no-pager";
  });
  const bool paging = no_pager == args.end();
  args.erase(no_pager, args.end());
  return run_command(static_cast<int>(args.size()), args.data(), out, err, json_errors, paging);
}

namespace {

int run_command(int argc, const char* const* argv, std::FILE* out, std::FILE* err, bool json_errors, bool paging) {
  // Kept (cli/support/kept.hpp): its options are freed one by one, 0.35 M instructions.
  CLI::App& app =
      *kept(std::make_unique<CLI::App>("mlsize: what hardware an ML workload needs, how long it takes, what it costs"));
  app.name("mlsize");
  app.set_help_flag();  // each command gets its own once its option groups are made
  app.require_subcommand(1);
  app.fallthrough(false);
  app.formatter(help_formatter());  // the commands inherit it

  // Only the command named first gets its options; the others are names for --help and
  // "did you mean". `--version` alone: none. Anything else first (--help, a typo): every
  // command in full.
  const std::string_view first = argc > 1 ? std::string_view(argv[1]) : std::string_view();
  const bool one = std::find(k_commands.begin(), k_commands.end(), first) != k_commands.end();
  // `completion` writes its scripts from every command's options; --version reads none.
  const bool version = first == "--version" && argc == 2;
  const auto full = [&](std::string_view name) { return !version && (!one || first == name || first == "completion"); };
  Commands c;
  add_commands(app, c, full);
  OutputConventions conventions;
  add_output_conventions(app, conventions, full);
  add_help_flags(app, full);
  app.set_version_flag("--version", version_line());  // after --help, which help lists first
  RecommendOptions& recommend_options = c.recommend_options;
  EstimateOptions& estimate_options = c.estimate_options;
  ExplainOptions& explain_options = c.explain_options;
  make_last_wins(app);
  make_ids_case_insensitive(app);
  // After the commands are added: they would inherit it.
  app.footer(examples({"mlsize recommend --params 7B --data 200GB --budget 20k --deadline 7d",
                       "mlsize estimate --model llama-3-8b --task qlora --data 1GB --gpus rtx-4090:1 --explain",
                       "mlsize catalog list --kind gpu --min-memory 80GB"}) +
             "\n\nmlsize COMMAND --help shows a command's options; docs/cli.md is the manual.");

  // The team's defaults (docs/cli.md#defaults) go in as the command's own flags, before
  // the user's, so that one parser checks them; a flag the user gave is not defaulted.
  std::vector<const char*> args(argv, argv + argc);
  std::vector<std::string> default_args;
  std::vector<AppliedDefault> defaults;
  const std::vector<std::string> words(argv + std::min(argc, 2), argv + argc);
  const bool asks_help = std::find_if(words.begin(), words.end(),
                                      [](const std::string& w) { return w == "--help" || w == "-h"; }) != words.end();
  if ((first == "recommend" || first == "estimate" || first == "explain") && !asks_help) {
    try {
      defaults =
          team_defaults(*app.get_subcommand(std::string(first)), std::string(first), words, read_default_sources());
    } catch (const Error& error) {
      return report_error(err, error, json_errors);
    }
    default_args = default_arguments(defaults);
    args.resize(2);
    for (const std::string& arg : default_args) args.push_back(arg.c_str());
    args.insert(args.end(), argv + 2, argv + argc);
  }
  recommend_options.workload.defaults = defaults;
  estimate_options.workload.defaults = defaults;
  explain_options.recommend.workload.defaults = defaults;

  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& failure) {
    // --help and --version are "errors" with exit code 0: print on stdout.
    if (failure.get_exit_code() == 0) {
      std::ostringstream help;
      std::ostringstream ignored;
      const int code = app.exit(failure, help, ignored);
      CommandOutput output;
      output.stdout_text = help.str();
      output.exit_code = code;
      return write_report(out, err, output, paging);
    }
    // CLI11's own codes (100+) are mapped to our one usage code.
    const CLI::App* sub = deepest_command(app);
    const std::string command = sub == nullptr ? std::string("mlsize recommend") : command_line(*sub);
    std::string message = failure.what();
    std::string hint;
    if (sub != nullptr && sub->get_require_subcommand_min() > 0 && sub->get_subcommands().empty()) {
      // A group without a known subcommand (`mlsize catalog lst`): the nearest, or the list.
      std::vector<std::string> names;
      for (const CLI::App* action : commands_of(*sub)) names.push_back(action->get_name());
      const auto word =
          std::find_if(args.begin() + 2, args.end(), [](const char* arg) { return arg != nullptr && arg[0] != '-'; });
      if (word != args.end()) {
        message = "unknown " + command + " command \"" + escape_unprintable(*word) + "\"";
        hint = did_you_mean(*word, names);
      } else {
        message = command + " needs a command";
      }
      if (hint.empty()) hint = command + " commands: " + join(names, ", ");
    } else if (sub != nullptr) {
      UsageText text = nearest_flag(*sub, failure.what(), std::span<const char* const>(args));
      message = std::move(text.message);
      hint = std::move(text.hint);
    }
    if (hint.empty()) hint = "run '" + command + " --help'";
    return report_error(err, Error(ErrorKind::usage, message, hint), json_errors);
  }

  try {
    CommandOutput output;
    std::optional<std::string> output_path;
    OutputGuard guard;
    const auto guard_for = [](const WorkloadOptions& options, const std::vector<std::string>& rule_files) {
      OutputGuard made{options.force_output, input_files(options)};
      made.inputs.insert(made.inputs.end(), rule_files.begin(), rule_files.end());
      return made;
    };
    recommend_options.words.assign(argv + std::min(argc, 2), argv + argc);
    if (c.recommend->parsed()) {
      output = run_recommend(recommend_options);
      output_path = recommend_options.workload.output_path;
      guard = guard_for(recommend_options.workload, recommend_options.rules.rule_files);
    }
    if (c.estimate->parsed()) {
      output = run_estimate(estimate_options);
      output_path = estimate_options.workload.output_path;
      guard = guard_for(estimate_options.workload, {});
    }
    if (c.catalog->parsed()) {
      output = run_catalog(c.catalog_options);
      guard.inputs = c.catalog_options.catalog_files;
    }
    if (c.explain->parsed()) {
      output = run_explain(explain_options);
      output_path = explain_options.recommend.workload.output_path;
      guard = guard_for(explain_options.recommend.workload, explain_options.recommend.rules.rule_files);
    }
    if (c.rules->parsed()) output = run_rules(c.rules_options);
    if (c.detect->parsed()) output = run_detect(c.detect_options);
    if (c.completion->parsed()) output = run_completion(c.completion_options, app);
    // calibrate writes its own --output: the overlay there, the comparison on stdout.
    if (c.calibrate->parsed()) output = run_calibrate(c.calibrate_options);
    // -o on a command without a workload (catalog list, detect, ...).
    if (conventions.output_path) {
      output_path = conventions.output_path;
      guard.force = conventions.force;
    }
    if (conventions.quiet) {
      if (output.exit_code == k_exit_success) output.stderr_text.clear();
      if (const CLI::App* command = deepest_command(app); command != nullptr && is_checker(*command)) {
        output.stdout_text.clear();
      }
    }
    // The whole report at once: nothing partial on failure. `--output -` (or /dev/stdout)
    // is the stream stdout already is.
    if (output_path && !is_standard_output(*output_path)) {
      write_output_file(*output_path, terminal_text(output.stdout_text), guard);
      output.stdout_text.clear();
    }
    return write_report(out, err, output, paging);
  } catch (const Error& error) {
    // A bad value the team's defaults set: say where it came from, as the user never typed it.
    const auto set_by = std::find_if(defaults.begin(), defaults.end(),
                                     [&](const AppliedDefault& d) { return d.flag == error.where(); });
    if (set_by == defaults.end()) return report_error(err, error, json_errors);
    {
      std::string hint = error.hint();
      if (!hint.empty()) hint += "; ";
      hint += set_by->flag;
      hint += " was set by ";
      hint += set_by->origin;
      hint += " (--no-defaults ignores the team's defaults)";
      Error sourced(error.kind(), error.message(), std::move(hint));
      sourced.at_flag(error.where());
      return report_error(err, sourced, json_errors);
    }
  } catch (const std::bad_alloc&) {
    return report_failure(err, "out_of_memory", "out of memory", json_errors);
  } catch (const std::exception& failure) {
    return report_failure(err, "internal", std::string("internal error: ") + failure.what(), json_errors);
  }
}

}  // namespace
}  // namespace mlsize::cli
