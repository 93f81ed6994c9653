#include <mlsize/expr/expression.hpp>

#include <algorithm>
#include <utility>

namespace mlsize {

Expression Expression::from_nodes(std::string text, std::vector<Node> nodes) {
  Expression e;
  e.m_text = std::move(text);
  e.m_nodes = std::move(nodes);
  e.index_fields();
  return e;
}

void Expression::index_fields() {
  m_fields.clear();
  for (const Node& node : m_nodes) {
    if (node.op == Op::field) m_fields.push_back(node.field);
  }
  std::sort(m_fields.begin(), m_fields.end());
  m_fields.erase(std::unique(m_fields.begin(), m_fields.end()), m_fields.end());
}

// --- evaluation ---

const Value* Expression::operand(std::uint32_t id, const FieldValues& values) const {
  const Node& node = m_nodes[id];
  if (node.op == Op::literal) return &node.literal;
  if (node.field >= values.size() || !values[node.field]) return nullptr;
  const Value& value = *values[node.field];
  // A value of the wrong type (a caller's bug) reads as missing rather than throwing.
  return value.type() == node.type ? &value : nullptr;
}

bool Expression::holds(std::uint32_t id, const FieldValues& values) const {
  return truth(id, values).value_or(false);
}

std::optional<bool> Expression::truth(std::uint32_t id, const FieldValues& values) const {
  const Node& node = m_nodes[id];
  switch (node.op) {
    case Op::field:
    case Op::literal: {
      const Value* value = operand(id, values);
      if (value == nullptr) return std::nullopt;
      return value->boolean();
    }
    case Op::and_: return holds(node.lhs, values) && holds(node.rhs, values);
    case Op::or_: return holds(node.lhs, values) || holds(node.rhs, values);
    case Op::not_: return !holds(node.lhs, values);
    default: break;
  }
  const ValueType type = m_nodes[node.lhs].type;
  if (type == ValueType::boolean) {
    const std::optional<bool> a = truth(node.lhs, values);
    if (!a) return false;
    if (node.op == Op::in) {
      return std::any_of(node.list.begin(), node.list.end(), [&](const Value& v) { return v.boolean() == *a; });
    }
    const std::optional<bool> b = truth(node.rhs, values);
    if (!b) return false;
    return node.op == Op::eq ? *a == *b : *a != *b;
  }
  const Value* a = operand(node.lhs, values);
  if (a == nullptr) return false;
  if (node.op == Op::in) return std::find(node.list.begin(), node.list.end(), *a) != node.list.end();
  const Value* b = operand(node.rhs, values);
  if (b == nullptr) return false;
  if (type == ValueType::string) return node.op == Op::eq ? a->string() == b->string() : a->string() != b->string();
  const double x = a->number();
  const double y = b->number();
  switch (node.op) {
    case Op::eq: return x == y;
    case Op::ne: return x != y;
    case Op::lt: return x < y;
    case Op::le: return x <= y;
    case Op::gt: return x > y;
    case Op::ge: return x >= y;
    default: return false;
  }
}

bool Expression::evaluate(const FieldValues& values) const {
  if (m_nodes.empty()) return true;
  return holds(static_cast<std::uint32_t>(m_nodes.size() - 1), values);
}

// --- partial evaluation ---

bool Expression::reads_only_below(std::uint32_t id, std::size_t known_below) const {
  const Node& node = m_nodes[id];
  switch (node.op) {
    case Op::field: return node.field < known_below;
    case Op::literal: return true;
    case Op::not_:
    case Op::in: return reads_only_below(node.lhs, known_below);
    default: return reads_only_below(node.lhs, known_below) && reads_only_below(node.rhs, known_below);
  }
}

bool Expression::refutes(std::uint32_t id, const FieldValues& values, std::size_t known_below) const {
  const Node& node = m_nodes[id];
  if (node.op == Op::and_) {
    return refutes(node.lhs, values, known_below) || refutes(node.rhs, values, known_below);
  }
  // A term that reads only known fields evaluates as it will with all of them.
  return reads_only_below(id, known_below) && !holds(id, values);
}

bool Expression::refuted(const FieldValues& values, std::size_t known_below) const {
  if (m_nodes.empty()) return false;
  return refutes(static_cast<std::uint32_t>(m_nodes.size() - 1), values, known_below);
}

void Expression::collect_unknown(std::uint32_t id, const FieldValues& values, std::size_t known_below,
                                 Terms& terms) const {
  const Node& node = m_nodes[id];
  if (node.op == Op::and_) {
    collect_unknown(node.lhs, values, known_below, terms);
    collect_unknown(node.rhs, values, known_below, terms);
    return;
  }
  // A known term evaluates as it will with all the fields: one that holds is dropped (one
  // that does not is kept, and fails every plan, as it would in the whole expression).
  if (!(reads_only_below(id, known_below) && holds(id, values))) terms.push_back(id);
}

Expression::Terms Expression::unknown_terms(const FieldValues& values, std::size_t known_below) const {
  Terms terms;
  if (!m_nodes.empty()) collect_unknown(static_cast<std::uint32_t>(m_nodes.size() - 1), values, known_below, terms);
  return terms;
}

bool Expression::holds_all(const Terms& terms, const FieldValues& values) const {
  // `and` evaluates its left side first, then its right: the same order, the same result.
  return std::all_of(terms.begin(), terms.end(), [&](std::uint32_t id) { return holds(id, values); });
}

}  // namespace mlsize
