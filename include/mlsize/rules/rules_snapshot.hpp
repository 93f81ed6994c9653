#pragma once
// Loaded rules as compact bytes, as catalog_snapshot.hpp does for the catalogue: the
// build checks data/rules/*.yaml once and compiles the bytes in. Expressions and messages
// are kept as their text and parsed again when read (mlsize's own parser, no YAML).

#include <mlsize/rules/rules.hpp>

#include <string>
#include <string_view>

namespace mlsize {

// Every rule of `rules`, in order.
std::string write_rules_snapshot(const RuleSet& rules);

// The rules write_rules_snapshot wrote; throws Error (input) when `bytes` is not one.
RuleSet read_rules_snapshot(std::string_view bytes);

}  // namespace mlsize
