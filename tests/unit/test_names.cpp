#include <mlsize/catalog/catalog.hpp>
#include <mlsize/catalog/price_import.hpp>
#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/strategy.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/rank/report.hpp>
#include <mlsize/rules/rule_fields.hpp>
#include <mlsize/rules/rules.hpp>

#include "names_check.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <string_view>

using namespace mlsize;
using mlsize::testing::check_names_table;

TEST_CASE("every names table round-trips each of its names", "[names]") {
  // The last enumerator of each enum: the tables must name every value up to it.
  check_names_table(Task::gbdt);
  check_names_table(Precision::fp8_mixed);
  check_names_table(Optimizer::lion);
  check_names_table(Recompute::full);
  check_names_table(Attention::standard);
  check_names_table(Framework::neuron);
  check_names_table(Profile::enterprise);
  check_names_table(WeightFormat::q2_k);
  check_names_table(KvFormat::int4);
  check_names_table(DeviceKind::cpu);
  check_names_table(DType::int8);
  check_names_table(OfferingKind::free_tier);
  check_names_table(Offload::optimizer_and_params);
  check_names_table(Pricing::reserved_3y);
  check_names_table(PriceBasis::on_demand);
  check_names_table(RuleAction::advise);
  check_names_table(Severity::tip);
  check_names_table(Objective::balanced);
  check_names_table(RejectionReason::preemption);
  check_names_table(PriceFormat::azure_retail);
}

TEST_CASE("parse_name refuses what no table entry spells", "[names]") {
  CHECK_FALSE(parse_name<Recompute>("ful"));
  CHECK_FALSE(parse_name<Precision>("bf16_mixed"));  // the enumerator, not the name
  CHECK_FALSE(parse_name<Task>(""));
  CHECK(parse_name<OfferingKind>("on-prem") == OfferingKind::on_prem);
  CHECK(to_string(Offload::optimizer_and_params) == "optimizer+params");
}

namespace {

std::string read_doc(const std::string& name) {
  std::ifstream file(std::string(MLSIZE_SOURCE_DIR) + "/docs/" + name);
  REQUIRE(file);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// `name`, as the docs write names. Appended piece by piece: concatenating string
// temporaries trips GCC 12's false -Wrestrict.
std::string in_backquotes(std::string_view name) {
  std::string text = "`";
  text += name;
  text += '`';
  return text;
}

// The line of a Markdown table whose first cell is `key` in backquotes.
std::string table_row(const std::string& doc, std::string_view key) {
  std::string start = "\n| ";
  start += in_backquotes(key);
  start += " |";
  const std::size_t at = doc.find(start);
  if (at == std::string::npos) return {};
  return doc.substr(at + 1, doc.find('\n', at + 1) - at - 1);
}

// The text from a "### heading" to the next heading.
std::string section(const std::string& doc, std::string_view heading) {
  const std::size_t at = doc.find("\n### " + std::string(heading) + "\n");
  if (at == std::string::npos) return {};
  return doc.substr(at + 1, doc.find("\n#", at + 1) - at - 1);
}

// Each name in backquotes somewhere in `text` (a table row, a section).
void check_names_each(const std::string& text, std::string_view where, std::span<const std::string_view> names) {
  INFO(std::string(where));
  REQUIRE_FALSE(text.empty());
  for (std::string_view name : names) {
    INFO("name " << std::string(name));
    CHECK(text.find(in_backquotes(name)) != std::string::npos);
  }
}

void check_row_names_each(const std::string& doc, std::string_view key, std::span<const std::string_view> names) {
  check_names_each(table_row(doc, key), key, names);
}

// "none|selective|full": how the synopsis writes a flag's values.
std::string alternatives(std::span<const std::string_view> names) {
  std::string text;
  for (std::string_view name : names) {
    if (!text.empty()) text += '|';
    text += name;
  }
  return text;
}

}  // namespace

TEST_CASE("docs/cli.md lists every name each enum flag accepts", "[names][docs]") {
  const std::string doc = read_doc("cli.md");
  check_row_names_each(doc, "--task", names<Task>());
  check_row_names_each(doc, "--precision", names<Precision>());
  check_row_names_each(doc, "--optimizer", names<Optimizer>());
  check_row_names_each(doc, "--attention", names<Attention>());
  check_row_names_each(doc, "--framework", names<Framework>());
  check_row_names_each(doc, "--quant", names<WeightFormat>());
  check_row_names_each(doc, "--kv-cache-dtype", names<KvFormat>());
  check_row_names_each(doc, "--pricing", names<Pricing>());
  check_row_names_each(doc, "--profile", names<Profile>());
  check_row_names_each(doc, "--optimize", names<Objective>());
  check_row_names_each(doc, "--recompute", names<Recompute>());
  check_row_names_each(doc, "--offload", names<Offload>());
  // The synopsis spells the values of these flags too.
  CHECK(doc.find("--recompute " + alternatives(names<Recompute>()) + "]") != std::string::npos);
  CHECK(doc.find("--offload " + alternatives(names<Offload>()) + "]") != std::string::npos);
  CHECK(doc.find("--kind " + alternatives(names<DeviceKind>()) + "]") != std::string::npos);
}

TEST_CASE("docs/rules.md lists every value of each closed rule field", "[names][docs]") {
  const std::string doc = read_doc("rules.md");
  for (const FieldSpec& field : rule_fields().fields()) {
    if (field.values.empty()) continue;
    const std::vector<std::string_view> values(field.values.begin(), field.values.end());
    check_row_names_each(doc, field.name, values);
  }
  check_names_each(section(doc, "action"), "### action", names<RuleAction>());
  check_names_each(section(doc, "severity"), "### severity", names<Severity>());
}

TEST_CASE("LoRA targets are one group or a list of single layers, named by the LoraTarget table", "[names]") {
  CHECK(parse_lora_targets("all-linear") == k_lora_all_linear);
  CHECK(parse_lora_targets("attention") == k_lora_attention);
  CHECK(parse_lora_targets("q,v") == (k_lora_q | k_lora_v));
  CHECK_FALSE(parse_lora_targets("q,attention"));  // a group does not stand in a list
  CHECK_FALSE(parse_lora_targets(""));
  CHECK_FALSE(parse_lora_targets("q,,v"));
  for (const EnumName<LoraTarget>& entry : name_table<LoraTarget>()) {
    INFO(std::string(entry.name));
    CHECK(parse_lora_targets(entry.name) == static_cast<unsigned>(entry.value));
  }
}
