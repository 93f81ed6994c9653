#pragma once
// Rules: practitioners' know-how and users' policies as data. Each rule has a
// condition over rule_fields() and one action. Schema and semantics: docs/rules.md.

#include <mlsize/expr/expression.hpp>
#include <mlsize/expr/field_set.hpp>
#include <mlsize/expr/message_template.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/names.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize {

inline constexpr std::size_t k_max_rules_file_bytes = 1024 * 1024;  // 1 MiB
inline constexpr std::size_t k_max_rules = 1000;                    // in one RuleSet
inline constexpr double k_max_rule_factor = 1000.0;

enum class RuleAction {
  exclude,   // drop the plan; `message` is the reason
  prefer,    // multiply the plan's score by `factor` (> 1)
  penalize,  // divide the plan's score by `factor` (> 1)
  require,   // drop the plan unless `require` holds too; `message` is the reason
  set,       // a planner default (`set`), decided from workload fields only
  advise,    // show `message`
};
constexpr auto enum_names(RuleAction) {
  using enum RuleAction;
  return std::to_array<EnumName<RuleAction>>({{exclude, "exclude"},
                                              {prefer, "prefer"},
                                              {penalize, "penalize"},
                                              {require, "require"},
                                              {set, "set"},
                                              {advise, "advise"}});
}
// tip: general good practice that holds for any plan; shown only when asked (--verbose).
enum class Severity { info, warn, tip };
constexpr auto enum_names(Severity) {
  using enum Severity;
  return std::to_array<EnumName<Severity>>({{info, "info"}, {warn, "warn"}, {tip, "tip"}});
}

struct Rule;

// What `set` rules decide. Only activation recomputation for now.
struct RuleSettings {
  std::optional<Recompute> recompute;
  const Rule* recompute_rule = nullptr;  // the rule that decided it
};

struct Rule {
  std::string id;
  std::string description;
  Expression when;
  RuleAction action = RuleAction::advise;
  Severity severity = Severity::info;
  std::string source;                      // a citation: paper, documentation URL; may be empty
  MessageTemplate message;                 // may be empty for prefer, penalize and set
  double factor = 1.0;                     // prefer and penalize
  Expression require;                      // require: what the plan must meet
  std::optional<Recompute> set_recompute;  // set: `plan.recompute: full`
  SourceLocation defined_at;
};

// A fired rule and its message, filled from the plan's fields.
struct RuleMessage {
  const Rule* rule = nullptr;
  std::string message;
  // In a report's advice: the recommendation (1 for #1) whose figures the message gives,
  // for a rule that reads a plan's fields; none for one that reads the workload's alone.
  std::optional<std::size_t> rank;
};

// Whether `rule` reads a device's, offering's, plan's or estimate's fields (in its
// condition or its message), so that what it says holds for one plan, not the workload.
bool reads_plan(const Rule& rule);

// What the rules did to one plan, in rule order.
struct RuleOutcome {
  std::vector<RuleMessage> exclusions;  // exclude rules that fired, require rules not met
  double score = 1.0;                   // product of prefer factors ÷ product of penalize factors
  std::vector<RuleMessage> scored;      // prefer and penalize rules that fired
  std::vector<RuleMessage> advice;      // advise rules that fired

  // An excluded plan stays excluded whatever its score.
  bool excluded() const { return !exclusions.empty(); }
  void clear();
};

class RuleSet {
 public:
  // Reads a rules file (`rules:` list) and adds its rules; a rule whose id exists
  // replaces it in place, new ids are appended. Throws Error (input) with file:line:column
  // on any problem; a file with an error adds nothing.
  void load_yaml(std::string_view text, std::string_view source_name);

  // Appends `rule` as load_yaml does (replacing the rule with its id in place), unchecked:
  // for rules that were checked already (read_rules_snapshot).
  void put(Rule rule);

  const std::vector<Rule>& rules() const { return m_rules; }
  std::size_t size() const { return m_rules.size(); }
  const Rule* find(std::string_view id) const;

  // What the exclude/prefer/penalize/require/advise rules do to one plan; `values` from
  // fill_rule_fields. Pointers into this set stay valid until the next load_yaml.
  RuleOutcome evaluate(const FieldValues& values) const;
  // The same into `outcome` (cleared first), reusing its memory across plans. (The
  // ranking judges its plans with a RuleJudge, without messages.)
  void evaluate(const FieldValues& values, RuleOutcome& outcome) const;

  // The planner defaults of the `set` rules whose condition holds (workload fields only;
  // the last matching rule in order wins).
  RuleSettings settings(const FieldValues& workload_values) const;

  // Every rule whose `when` holds, of any action, in order (for `explain`).
  std::vector<const Rule*> matching(const FieldValues& values) const;

 private:
  std::vector<Rule> m_rules;
};

// The default rules compiled into the binary from data/rules/*.yaml, read from the
// snapshot the build made of them (rules_snapshot.hpp): no YAML is parsed.
RuleSet load_default_rules();

// The same rules parsed from their embedded YAML with every check: what the build's
// snapshot is made from, and what tests compare it with.
RuleSet load_default_rules_yaml();

}  // namespace mlsize
