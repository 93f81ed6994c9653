#include <mlsize/rules/rules_snapshot.hpp>

#include <mlsize/rules/rule_fields.hpp>

#include "core/support/snapshot_bytes.hpp"

#include <cstdint>

namespace mlsize {
namespace {

// Bumped whenever the layout changes; a mismatch is a stale build, not user input.
constexpr std::uint32_t k_rules_snapshot_version = 2;

}  // namespace

std::string write_rules_snapshot(const RuleSet& rules) {
  snapshot::Writer w;
  w.u32(k_rules_snapshot_version);
  w.u32(static_cast<std::uint32_t>(rules.size()));
  for (const Rule& rule : rules.rules()) {
    w.text(rule.id);
    w.text(rule.description);
    w.text(rule.when.text());
    w.u32(static_cast<std::uint32_t>(rule.action));
    w.u32(static_cast<std::uint32_t>(rule.severity));
    w.text(rule.source);
    w.text(rule.message.text());
    w.f64(rule.factor);
    w.text(rule.require.text());
    w.optional(rule.set_recompute, [&](Recompute r) { w.u32(static_cast<std::uint32_t>(r)); });
    w.location(rule.defined_at);
  }
  return w.take();
}

RuleSet read_rules_snapshot(std::string_view bytes) {
  snapshot::Reader r(bytes);
  if (r.u32() != k_rules_snapshot_version) {
    throw Error(ErrorKind::input, "the compiled-in rules have another layout", "rebuild mlsize");
  }
  // The texts were checked when the build loaded them: no locations are needed.
  const ExpressionLocator nowhere = [](std::size_t) { return SourceLocation{}; };
  const auto expression = [&](const std::string& text) {
    return text.empty() ? Expression() : Expression::parse(text, rule_fields(), nowhere);
  };
  RuleSet rules;
  for (std::uint32_t n = r.u32(); n > 0; --n) {
    Rule rule;
    rule.id = r.text();
    rule.description = r.text();
    rule.when = expression(r.text());
    rule.action = static_cast<RuleAction>(r.u32());
    rule.severity = static_cast<Severity>(r.u32());
    rule.source = r.text();
    const std::string message = r.text();
    if (!message.empty()) rule.message = MessageTemplate::parse(message, rule_fields(), nowhere);
    rule.factor = r.f64();
    rule.require = expression(r.text());
    rule.set_recompute = r.optional<Recompute>([&] { return static_cast<Recompute>(r.u32()); });
    rule.defined_at = r.location();
    rules.put(std::move(rule));
  }
  if (!r.done()) throw Error(ErrorKind::input, "the compiled-in rules have trailing bytes", "rebuild mlsize");
  return rules;
}

}  // namespace mlsize
