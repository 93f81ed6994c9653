// The default rules from the snapshot compiled in: kept apart from the YAML loader, which
// the build's snapshot tool links without a snapshot to read.

#include <mlsize/rules/rules.hpp>
#include <mlsize/rules/rules_snapshot.hpp>
#include <mlsize/support/embedded_data.hpp>

namespace mlsize {

RuleSet load_default_rules() {
  return read_rules_snapshot(default_rules_snapshot());
}

}  // namespace mlsize
