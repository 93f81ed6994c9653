#include "cli/options/team_defaults.hpp"

#include "cli/io/input_file.hpp"
#include "cli/options/catalog_options.hpp"
#include "cli/options/choice.hpp"
#include "cli/options/option_conventions.hpp"
#include "core/support/yaml_documents.hpp"

#include <mlsize/support/error.hpp>
#include <mlsize/support/text_distance.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

extern char** environ;  // POSIX: the process environment

namespace mlsize::cli {
namespace {

constexpr std::array<std::string_view, 4> k_sections{"defaults", "recommend", "estimate", "explain"};
constexpr std::size_t k_max_config_bytes = 1 << 20;

// The option of `command` named `--name`, or null (help and positionals are not defaults).
const CLI::Option* option_named(const CLI::App& command, const std::string& name) {
  const CLI::Option* option = command.get_option_no_throw("--" + name);
  if (option == nullptr || name == "help" || name == "no-defaults") return nullptr;
  return option;
}

bool takes_values(const CLI::Option* option) {
  return option->get_expected_max() != 0;
}
bool repeatable(const CLI::Option* option) {
  return option->get_expected_max() > 1;
}

// "--top" from "--top=3" or "--top"; empty for anything else.
std::string flag_of(const std::string& word) {
  if (!word.starts_with("--")) return {};
  return word.substr(0, word.find('='));
}

struct ConfigFile {
  const DefaultSources& sources;

  SourceLocation location(const YAML::Mark& mark) const {
    SourceLocation at{*sources.config_path, mark.line + 1, mark.column + 1, {}};
    // The line the mark is on, shown with a caret under its column.
    std::istringstream lines(sources.config_text);
    std::string line;
    for (int i = 0; i <= mark.line; ++i) {
      if (!std::getline(lines, line)) return at;
    }
    at.line_text = line;
    return at;
  }

  [[noreturn]] void fail(const YAML::Mark& mark, std::string message, std::string hint = {}) const {
    Error error(ErrorKind::input, std::move(message), std::move(hint));
    error.at(location(mark));
    throw error;
  }
};

// A flag's value from the environment: a word for a flag without a value, each
// whitespace-separated word for a repeatable option, else the whole text.
std::vector<std::string> environment_values(const CLI::Option* option, const std::string& variable,
                                            const std::string& text) {
  if (!takes_values(option)) {
    const std::string word = lower_case(text);
    if (word == "1" || word == "true" || word == "yes") return {""};
    if (word == "0" || word == "false" || word == "no" || word.empty()) return {};
    throw Error(ErrorKind::usage, variable + "=" + text + ": " + option->get_name() + " takes no value",
                "set it to 1 or true to give the flag, 0 or false not to");
  }
  if (!repeatable(option)) return {text};
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

}  // namespace

std::vector<AppliedDefault> team_defaults(const CLI::App& command, const std::string& name,
                                          const std::vector<std::string>& given, const DefaultSources& sources) {
  std::set<std::string> set_flags;
  for (const std::string& word : given) {
    if (const std::string flag = flag_of(word); !flag.empty()) set_flags.insert(flag);
  }
  if (set_flags.contains("--no-defaults")) return {};
  std::vector<AppliedDefault> applied;
  const auto add = [&](const CLI::Option* option, const std::vector<std::string>& values, const std::string& origin) {
    const std::string flag = "--" + option->get_lnames().front();
    if (values.empty() || !set_flags.insert(flag).second) return;
    for (const std::string& value : values) applied.push_back({flag, value, origin});
  };

  // The environment first: it overrides the file.
  for (const auto& [variable, text] : sources.environment) {
    std::string key = lower_case(variable.substr(7));  // after "MLSIZE_"
    std::replace(key.begin(), key.end(), '_', '-');
    if (const CLI::Option* option = option_named(command, key)) {
      add(option, environment_values(option, variable, text), variable);
    }
  }

  if (!sources.config_path || sources.config_text.empty()) return applied;
  const ConfigFile file{sources};
  const auto fail = [&](const YAML::Mark& mark, std::string message, std::string hint) {
    file.fail(mark, std::move(message), std::move(hint));
  };
  const YAML::Node root =
      load_one_document(sources.config_text, "config", "keep the config flat: sections of flags",
                        "a mapping: defaults:, recommend:, estimate:, explain: with flags under them", fail);
  checked_keys(root, "the config file", std::span<const std::string_view>(k_sections), fail);
  // The command's own section overrides `defaults`.
  for (const std::string& section : {name, std::string("defaults")}) {
    const YAML::Node flags = root[section];
    if (!flags) continue;
    if (!flags.IsMap()) fail(flags.Mark(), "\"" + section + "\" must be a mapping of flags to values", "");
    std::map<std::string, int> first_lines;  // flag -> its 1-based line, to refuse a repeat
    for (const auto& entry : flags) {
      const std::string key = entry.first.Scalar();
      if (const auto [first, added] = first_lines.emplace(key, entry.first.Mark().line + 1); !added) {
        fail(entry.first.Mark(),
             "duplicate flag \"" + key + "\" in " + section + " (first at line " + std::to_string(first->second) + ")",
             "keep one of them; a list gives a repeatable flag several values");
      }
      const CLI::Option* option = option_named(command, key);
      if (option == nullptr) {
        // `defaults` holds flags for several commands: one that this command lacks is theirs.
        if (section == "defaults" && key != "help") continue;
        std::vector<std::string> flags_of_command;
        for (const CLI::Option* o : all_options(command)) {
          if (!o->get_lnames().empty()) flags_of_command.push_back(o->get_lnames().front());
        }
        std::string hint = did_you_mean(key, flags_of_command);
        if (hint.empty()) hint = "the keys are the flags of mlsize " + section + " without --";
        fail(entry.first.Mark(), "unknown flag \"" + key + "\" in " + section, hint);
      }
      const YAML::Node& value = entry.second;
      std::vector<std::string> values;
      if (value.IsSequence() && repeatable(option)) {
        for (const YAML::Node& item : value) {
          if (!item.IsScalar()) fail(item.Mark(), "--" + key + " takes words, not a nested list", "");
          values.push_back(item.Scalar());
        }
      } else if (value.IsScalar() && takes_values(option)) {
        values.push_back(value.Scalar());
      } else if (value.IsScalar() && !takes_values(option)) {
        const std::string word = lower_case(value.Scalar());
        if (word != "true" && word != "false") fail(value.Mark(), "--" + key + " is a flag: true or false", "");
        if (word == "true") values.push_back("");
      } else {
        fail(value.Mark(), "--" + key + " takes " + (repeatable(option) ? "a value or a list" : "one value"), "");
      }
      // A file named in the config is found beside it, wherever mlsize runs.
      if (option->get_type_name() == "FILE") {
        const std::filesystem::path directory = std::filesystem::path(*sources.config_path).parent_path();
        for (std::string& file_name : values) {
          if (std::filesystem::path(file_name).is_relative()) file_name = (directory / file_name).string();
        }
      }
      const YAML::Mark mark = entry.first.Mark();
      add(option, values, *sources.config_path + ":" + std::to_string(mark.line + 1));
    }
  }
  return applied;
}

std::vector<std::string> default_arguments(const std::vector<AppliedDefault>& defaults) {
  std::vector<std::string> args;
  for (const AppliedDefault& d : defaults) {
    args.push_back(d.flag);
    if (!d.value.empty()) args.push_back(d.value);
  }
  return args;
}

DefaultSources read_default_sources() {
  DefaultSources sources;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const std::size_t equals = text.find('=');
    if (!text.starts_with("MLSIZE_") || equals == std::string::npos) continue;
    const std::string name = text.substr(0, equals);
    // Not flags' defaults: the config file, the overlays, and the date prices are aged to
    // (read where they are used).
    if (name == "MLSIZE_CONFIG" || name == "MLSIZE_CATALOG" || name == "MLSIZE_TODAY") continue;
    sources.environment.emplace_back(name, text.substr(equals + 1));
  }
  std::sort(sources.environment.begin(), sources.environment.end());
  if (const char* named = std::getenv("MLSIZE_CONFIG"); named != nullptr && named[0] != '\0') {
    sources.config_path = named;  // named: it must exist
  } else if (const std::optional<std::filesystem::path> directory = config_directory()) {
    const std::filesystem::path path = *directory / "mlsize" / "config.yaml";
    std::error_code error;
    if (std::filesystem::exists(path, error)) sources.config_path = path.string();
  }
  if (sources.config_path) sources.config_text = read_input_file(*sources.config_path, k_max_config_bytes);
  return sources;
}

}  // namespace mlsize::cli
