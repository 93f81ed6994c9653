#include "cli/options/rule_options.hpp"

#include "cli/io/input_file.hpp"
#include "cli/options/option_conventions.hpp"

namespace mlsize::cli {

void add_rule_options(CLI::App& command, RuleOptions& options) {
  CLI::App* in = &option_group(command, k_group_sources);
  in->add_option("--rules", options.rule_files, "Rules YAML laid over the defaults; repeatable (docs/rules.md)")
      ->type_name("FILE");
  in->add_flag("--no-default-rules", options.no_default_rules, "Do not load the built-in rules");
}

RuleSet build_rule_set(const RuleOptions& options) {
  RuleSet rules = options.no_default_rules ? RuleSet() : load_default_rules();
  for (const std::string& path : options.rule_files) {
    rules.load_yaml(read_input_file(path, k_max_rules_file_bytes), path);
  }
  return rules;
}

}  // namespace mlsize::cli
