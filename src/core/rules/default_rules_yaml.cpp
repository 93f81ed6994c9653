#include <mlsize/rules/rules.hpp>
#include <mlsize/support/embedded_data.hpp>

#include <string>

namespace mlsize {

RuleSet load_default_rules_yaml() {
  RuleSet rules;
  for (const EmbeddedFile& file : default_rule_files()) {
    rules.load_yaml(file.text, std::string("<embedded>/data/rules/") + std::string(file.name));
  }
  return rules;
}

}  // namespace mlsize
