#pragma once
// `mlsize rules list`: the rules in force, as a table for people or JSON for tools.

#include "cli/render/provenance.hpp"

#include <mlsize/rules/rules.hpp>

#include <string>

namespace mlsize::cli {

std::string render_rules_table(const RuleSet& rules);
std::string render_rules_json(const RuleSet& rules, const Provenance& provenance);  // docs/schema/rules.schema.json

}  // namespace mlsize::cli
