#pragma once
// `mlsize rules list`: the rules in force, as a table for people or JSON for tools.

#include "cli/render/provenance.hpp"

#include <mlsize/rules/rules.hpp>

#include <cstddef>
#include <string>

namespace mlsize::cli {

// Each rule's lines within `width` columns, a long condition or source continued four
// columns in (a URL longer than the width keeps its line).
std::string render_rules_table(const RuleSet& rules, std::size_t width);
std::string render_rules_json(const RuleSet& rules, const Provenance& provenance);  // docs/schema/rules.schema.json

}  // namespace mlsize::cli
