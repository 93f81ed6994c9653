#include <mlsize/rules/rules_snapshot.hpp>

#include <mlsize/rules/rule_fields.hpp>

#include "core/support/snapshot_bytes.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlsize {
namespace {

// Bumped whenever the layout changes; a mismatch is a stale build, not user input.
constexpr std::uint32_t k_rules_snapshot_version = 3;

void write_value(snapshot::Writer& w, const Value& value) {
  w.u32(static_cast<std::uint32_t>(value.type()));
  switch (value.type()) {
    case ValueType::number: w.f64(value.number()); break;
    case ValueType::string: w.text(value.string()); break;
    case ValueType::boolean: w.u32(value.boolean() ? 1 : 0); break;
  }
}

Value read_value(snapshot::Reader& r) {
  switch (r.enumerated<ValueType>(3)) {
    case ValueType::number: return Value(r.f64());
    case ValueType::string: return Value(r.text());
    case ValueType::boolean: return Value(r.u32() != 0);
  }
  return Value();
}

// The fewest bytes a written value (its type and a flag) and a node (five numbers, its
// literal, its list's count) take.
constexpr std::size_t k_least_value_bytes = 8;
constexpr std::size_t k_least_node_bytes = 5 * 4 + k_least_value_bytes + 4;

// An expression as its text and its parsed tree (Expression::from_nodes).
void write_expression(snapshot::Writer& w, const Expression& e) {
  w.text(e.text());
  w.u32(static_cast<std::uint32_t>(e.nodes().size()));
  for (const Expression::Node& node : e.nodes()) {
    w.u32(static_cast<std::uint32_t>(node.op));
    w.u32(static_cast<std::uint32_t>(node.type));
    w.u32(node.lhs);
    w.u32(node.rhs);
    w.u32(static_cast<std::uint32_t>(node.field));
    write_value(w, node.literal);
    w.u32(static_cast<std::uint32_t>(node.list.size()));
    for (const Value& value : node.list) write_value(w, value);
  }
}

Expression read_expression(snapshot::Reader& r) {
  std::string text = r.text();
  // Counts bounded by the bytes left: a damaged snapshot is an error, not a huge allocation.
  std::vector<Expression::Node> nodes(r.count(k_least_node_bytes));
  for (Expression::Node& node : nodes) {
    node.op = static_cast<Expression::Op>(r.u32());
    node.type = static_cast<ValueType>(r.u32());
    node.lhs = r.u32();
    node.rhs = r.u32();
    node.field = r.u32();
    node.literal = read_value(r);
    node.list.resize(r.count(k_least_value_bytes));
    for (Value& value : node.list) value = read_value(r);
  }
  return Expression::from_nodes(std::move(text), std::move(nodes));
}

}  // namespace

std::string write_rules_snapshot(const RuleSet& rules) {
  snapshot::Writer w;
  w.u32(k_rules_snapshot_version);
  w.u32(static_cast<std::uint32_t>(rules.size()));
  for (const Rule& rule : rules.rules()) {
    w.text(rule.id);
    w.text(rule.description);
    write_expression(w, rule.when);
    w.u32(static_cast<std::uint32_t>(rule.action));
    w.u32(static_cast<std::uint32_t>(rule.severity));
    w.text(rule.source);
    w.text(rule.message.text());
    w.f64(rule.factor);
    write_expression(w, rule.require);
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
  RuleSet rules;
  for (std::uint32_t n = r.u32(); n > 0; --n) {
    Rule rule;
    rule.id = r.text();
    rule.description = r.text();
    rule.when = read_expression(r);
    rule.action = static_cast<RuleAction>(r.u32());
    rule.severity = static_cast<Severity>(r.u32());
    rule.source = r.text();
    const std::string message = r.text();
    if (!message.empty()) rule.message = MessageTemplate::parse(message, rule_fields(), nowhere);
    rule.factor = r.f64();
    rule.require = read_expression(r);
    rule.set_recompute = r.optional<Recompute>([&] { return static_cast<Recompute>(r.u32()); });
    rule.defined_at = r.location();
    rules.put(std::move(rule));
  }
  if (!r.done()) throw Error(ErrorKind::input, "the compiled-in rules have trailing bytes", "rebuild mlsize");
  return rules;
}

}  // namespace mlsize
