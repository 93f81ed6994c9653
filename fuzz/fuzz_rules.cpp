// Fuzzes the rules language: the input is parsed as an expression and, separately, as
// a rules file; whatever parses is evaluated against a fixed plan's fields.
#include <mlsize/model/architecture.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/expr/expression.hpp>
#include <mlsize/rules/rule_fields.hpp>
#include <mlsize/rules/rules.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

const mlsize::FieldValues& plan_values() {
  static const mlsize::FieldValues values = [] {
    mlsize::Workload workload;
    workload.model = mlsize::architecture_from_params(7e9);
    workload.parameters = mlsize::parameter_count_from_params(7e9, workload.model);
    workload.tokens = 5e10;
    return mlsize::rule_field_values(workload);
  }();
  return values;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const mlsize::Expression expression = mlsize::Expression::parse(text, mlsize::rule_fields());
    (void)expression.evaluate(plan_values());
  } catch (const mlsize::Error&) {
  }
  try {
    mlsize::RuleSet rules;
    rules.load_yaml(text, "fuzz.yaml");
    (void)rules.evaluate(plan_values());
    (void)rules.settings(plan_values());
  } catch (const mlsize::Error&) {
  }
  return 0;
}
