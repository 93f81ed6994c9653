#include <mlsize/catalog/catalog.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/estimate/plan.hpp>
#include <mlsize/rules/rule_fields.hpp>
#include <mlsize/rules/rules.hpp>

#include "workload_fixture.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace mlsize;

namespace {

// Field values by name; fields not named are missing.
FieldValues values(std::initializer_list<std::pair<std::string_view, Value>> named) {
  FieldValues result(rule_fields().size());
  for (const auto& [name, value] : named) {
    const std::optional<std::size_t> id = rule_fields().find(name);
    INFO(name);
    REQUIRE(id);
    result[*id].emplace(value);
  }
  return result;
}

// The value of `field`, which must be present.
Value value_of(const FieldValues& values, RuleField field) {
  const std::optional<Value>& value = values[field_id(field)];
  REQUIRE(value.has_value());
  return value.value_or(Value());
}

bool missing(const FieldValues& values, RuleField field) { return !values[field_id(field)].has_value(); }

std::optional<Error> load_error(RuleSet& rules, std::string_view text) {
  try {
    rules.load_yaml(text, "rules.yaml");
  } catch (const Error& error) {
    return error;
  }
  return std::nullopt;
}

// Checks message, hint and file:line:column of the error loading `text` throws.
void check_load_error(std::string_view text, std::string_view where, std::string_view message,
                      std::string_view hint = {}) {
  INFO(text);
  RuleSet rules;
  const std::optional<Error> error = load_error(rules, text);
  REQUIRE(error);
  CHECK(error->kind() == ErrorKind::input);
  CHECK(error->where() == where);
  CHECK(error->message() == message);
  CHECK(error->hint() == hint);
  CHECK(rules.size() == 0);
}

std::string read_defaults() {
  std::ifstream file(std::string(MLSIZE_SOURCE_DIR) + "/data/rules/defaults.yaml");
  REQUIRE(file);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

RuleSet default_rules() {
  RuleSet rules;
  rules.load_yaml(read_defaults(), "data/rules/defaults.yaml");
  return rules;
}

// The ids of the rules that did something to a plan.
std::set<std::string> fired(const RuleOutcome& outcome) {
  std::set<std::string> ids;
  for (const auto* list : {&outcome.exclusions, &outcome.scored, &outcome.advice}) {
    for (const RuleMessage& entry : *list) ids.insert(entry.rule->id);
  }
  return ids;
}

// One rule of each action, lines 1-38.
constexpr std::string_view k_rules_yaml = R"(rules:
  - id: no-aws
    description: Our policy.
    when: offering.provider == "aws"
    action: exclude
    severity: warn
    message: "{offering.id} is an AWS offering"
  - id: like-h100
    description: Prefer H100s.
    when: device.id == "h100"
    action: prefer
    factor: 2
  - id: dislike-many
    description: Fewer devices are simpler.
    when: plan.device_count > 8
    action: penalize
    factor: 4
    message: "{plan.device_count} devices"
  - id: big-needs-eight
    description: Large models need at least eight devices.
    when: workload.params >= 30B
    action: require
    require: plan.device_count >= 8
    message: "{workload.params} parameters need 8 devices, not {plan.device_count}"
  - id: long-context-recompute
    description: Long sequences recompute activations.
    when: workload.sequence_length >= 32k
    action: set
    set:
      plan.recompute: full
  - id: say-cost
    description: Show the cost.
    when: estimate.cost_usd > 0
    action: advise
    source: "https://example.org/cost"
    message: "{estimate.cost_usd} for {estimate.seconds} on {estimate.memory_fraction} of {device.memory_bytes}; budget {workload.budget_usd}; {{literal}}"
)";

}  // namespace

TEST_CASE("rule_fields lists every RuleField in order", "[rules]") {
  const FieldSet& fields = rule_fields();
  REQUIRE(fields.size() == field_id(RuleField::count));
  CHECK(fields.find("workload.params") == field_id(RuleField::workload_params));
  CHECK(fields.find("workload.model_states_bytes") == field_id(RuleField::workload_model_states_bytes));
  CHECK(fields.find("device.bf16") == field_id(RuleField::device_bf16));
  CHECK(fields.find("offering.devices_per_unit") == field_id(RuleField::offering_devices_per_unit));
  CHECK(fields.find("plan.tokens_per_step") == field_id(RuleField::plan_tokens_per_step));
  CHECK(fields.find("estimate.cost_usd") == field_id(RuleField::estimate_cost_usd));
  std::set<std::string> names;
  for (const FieldSpec& field : fields.fields()) {
    CHECK(names.insert(field.name).second);
    CHECK_FALSE(field.description.empty());
  }
  // The planned task may be named before the CLI offers it.
  const FieldSpec& task = fields[field_id(RuleField::workload_task)];
  CHECK(std::find(task.values.begin(), task.values.end(), "gbdt") != task.values.end());
}

TEST_CASE("fill_rule_fields from a workload alone leaves the hardware fields missing", "[rules]") {
  Workload workload = testing::workload_for_params(7e9, 50e9);
  workload.budget = Usd(20000);
  const FieldValues v = rule_field_values(workload);
  CHECK(value_of(v, RuleField::workload_params).number() == 7e9);
  CHECK(value_of(v, RuleField::workload_tokens).number() == 50e9);
  CHECK(value_of(v, RuleField::workload_dataset_bytes).number() == 200e9);  // 4 bytes per token
  CHECK(value_of(v, RuleField::workload_task).string() == "pretrain");
  CHECK(value_of(v, RuleField::workload_precision).string() == "bf16-mixed");
  CHECK(value_of(v, RuleField::workload_budget_usd).number() == 20000);
  CHECK(missing(v, RuleField::workload_deadline_seconds));
  CHECK(value_of(v, RuleField::workload_model_states_bytes).number() == Approx(7e9 * 18));  // bf16-mixed  // 2+2+4+8 bytes
  CHECK(missing(v, RuleField::device_kind));
  CHECK(missing(v, RuleField::offering_provider));
  CHECK(missing(v, RuleField::plan_device_count));
  CHECK(missing(v, RuleField::estimate_cost_usd));

  workload.task = Task::lora;
  CHECK(missing(rule_field_values(workload), RuleField::workload_model_states_bytes));
  workload.task = Task::inference;
  workload.dataset_bytes.reset();
  CHECK(missing(rule_field_values(workload), RuleField::workload_dataset_bytes));
}

TEST_CASE("fill_rule_fields reads the device, offering and estimate of a plan", "[rules]") {
  Device device;
  device.id = "test-gpu";
  device.kind = DeviceKind::gpu;
  device.vendor = "acme";
  device.memory = Bytes(80e9);
  device.peak_flops_per_s[static_cast<std::size_t>(DType::bf16)] = 312e12;
  Offering offering;
  offering.id = "acme-8x";
  offering.provider = "acme";
  offering.kind = OfferingKind::cloud;
  offering.devices_per_unit = 8;
  offering.price.on_demand = Usd(32.5);
  PlanEstimate estimate;
  estimate.plan.device = &device;
  estimate.plan.offering = &offering;
  estimate.plan.device_count = 8;
  estimate.plan.strategy.zero_stage = 2;
  estimate.plan.strategy.recompute = Recompute::full;
  estimate.memory.weights = Bytes(10e9);
  estimate.memory.gradients = Bytes(5e9);
  estimate.memory.optimizer = Bytes(20e9);
  estimate.memory.activations = Bytes(40e9);
  estimate.memory.overhead = Bytes(5e9);
  estimate.capacity = Bytes(100e9);
  estimate.fits = true;
  estimate.time = Seconds(3600);
  estimate.cost = Usd(260);

  FieldValues v;
  fill_rule_fields(v, testing::workload_for_params(7e9), nullptr, nullptr, &estimate);
  CHECK(value_of(v, RuleField::device_id).string() == "test-gpu");
  CHECK(value_of(v, RuleField::device_kind).string() == "gpu");
  CHECK(value_of(v, RuleField::device_memory_bytes).number() == 80e9);
  CHECK(value_of(v, RuleField::device_bf16).boolean());
  CHECK_FALSE(value_of(v, RuleField::device_fp8).boolean());
  CHECK(value_of(v, RuleField::offering_kind).string() == "cloud");
  CHECK(value_of(v, RuleField::offering_price_per_hour_usd).number() == 32.5);
  CHECK(value_of(v, RuleField::offering_devices_per_unit).number() == 8);
  CHECK(value_of(v, RuleField::plan_device_count).number() == 8);
  CHECK(value_of(v, RuleField::plan_zero_stage).number() == 2);
  CHECK(value_of(v, RuleField::plan_recompute).string() == "full");
  CHECK(value_of(v, RuleField::plan_tokens_per_step).number() == 8 * 2048);
  CHECK(value_of(v, RuleField::estimate_fits).boolean());
  CHECK(value_of(v, RuleField::estimate_memory_bytes).number() == Approx(80e9));
  CHECK(value_of(v, RuleField::estimate_memory_fraction).number() == Approx(0.8));
  CHECK(value_of(v, RuleField::estimate_activations_fraction).number() == Approx(0.5));
  CHECK(value_of(v, RuleField::estimate_model_states_bytes).number() == Approx(35e9));
  CHECK(value_of(v, RuleField::estimate_seconds).number() == 3600);
  CHECK(value_of(v, RuleField::estimate_cost_usd).number() == 260);

  estimate.cost.reset();
  fill_rule_fields(v, testing::workload_for_params(7e9), &device, nullptr, &estimate);
  CHECK(missing(v, RuleField::estimate_cost_usd));
}

TEST_CASE("RuleSet::load_yaml reads each action", "[rules]") {
  RuleSet rules;
  rules.load_yaml(k_rules_yaml, "rules.yaml");
  REQUIRE(rules.size() == 6);
  const Rule& exclude = rules.rules()[0];
  CHECK(exclude.id == "no-aws");
  CHECK(exclude.description == "Our policy.");
  CHECK(exclude.action == RuleAction::exclude);
  CHECK(exclude.severity == Severity::warn);
  CHECK(exclude.when.text() == "offering.provider == \"aws\"");
  CHECK(exclude.message.text() == "{offering.id} is an AWS offering");
  CHECK(exclude.defined_at.line == 2);
  CHECK(exclude.defined_at.column == 5);
  CHECK(rules.find("like-h100")->factor == 2);
  CHECK(rules.find("like-h100")->severity == Severity::info);
  CHECK(rules.find("dislike-many")->action == RuleAction::penalize);
  CHECK(rules.find("big-needs-eight")->require.text() == "plan.device_count >= 8");
  CHECK(rules.find("long-context-recompute")->set_recompute == Recompute::full);
  CHECK(rules.find("say-cost")->source == "https://example.org/cost");
  CHECK(rules.find("missing") == nullptr);
}

TEST_CASE("RuleSet::evaluate: exclusions, score and advice for one plan", "[rules]") {
  RuleSet rules;
  rules.load_yaml(k_rules_yaml, "rules.yaml");

  const FieldValues plan = values({{"offering.provider", "aws"},
                                   {"offering.id", "aws-p5"},
                                   {"device.id", "h100"},
                                   {"device.memory_bytes", 80e9},
                                   {"plan.device_count", 16},
                                   {"workload.params", 70e9},
                                   {"estimate.cost_usd", 2196.4},
                                   {"estimate.seconds", 3.8 * 86400},
                                   {"estimate.memory_fraction", 0.47}});
  const RuleOutcome outcome = rules.evaluate(plan);
  REQUIRE(outcome.excluded());
  REQUIRE(outcome.exclusions.size() == 1);
  CHECK(outcome.exclusions[0].rule->id == "no-aws");
  CHECK(outcome.exclusions[0].message == "aws-p5 is an AWS offering");
  CHECK(outcome.score == Approx(2.0 / 4.0));
  REQUIRE(outcome.scored.size() == 2);
  CHECK(outcome.scored[0].rule->id == "like-h100");
  CHECK(outcome.scored[0].message.empty());
  CHECK(outcome.scored[1].message == "16 devices");
  REQUIRE(outcome.advice.size() == 1);
  CHECK(outcome.advice[0].message == "$2,196 for 3.8 d on 47% of 80.0 GB; budget unknown; {literal}");

  // require: met with 16 devices, unmet with 4.
  const FieldValues few = values({{"workload.params", 70e9}, {"plan.device_count", 4}});
  const RuleOutcome small = rules.evaluate(few);
  REQUIRE(small.exclusions.size() == 1);
  CHECK(small.exclusions[0].rule->id == "big-needs-eight");
  CHECK(small.exclusions[0].message == "70.0B parameters need 8 devices, not 4");
  CHECK(small.score == 1.0);

  // Reusing an outcome clears it first.
  RuleOutcome reused = outcome;
  rules.evaluate(values({{"device.id", "a100"}}), reused);
  CHECK_FALSE(reused.excluded());
  CHECK(reused.score == 1.0);
  CHECK(reused.advice.empty());

  std::vector<std::string> matching;
  for (const Rule* rule : rules.matching(plan)) matching.push_back(rule->id);
  CHECK(matching == std::vector<std::string>{"no-aws", "like-h100", "dislike-many", "big-needs-eight", "say-cost"});
}

TEST_CASE("RuleSet::settings applies set rules from workload fields", "[rules]") {
  RuleSet rules;
  rules.load_yaml(k_rules_yaml, "rules.yaml");
  const RuleSettings long_context = rules.settings(values({{"workload.sequence_length", 65536}}));
  CHECK(long_context.recompute == Recompute::full);
  REQUIRE(long_context.recompute_rule != nullptr);
  CHECK(long_context.recompute_rule->id == "long-context-recompute");
  CHECK_FALSE(rules.settings(values({{"workload.sequence_length", 2048}})).recompute);
  // evaluate() leaves set rules to settings().
  CHECK(fired(rules.evaluate(values({{"workload.sequence_length", 65536}}))).empty());
}

TEST_CASE("RuleSet::load_yaml overrides rules by id, in place", "[rules]") {
  RuleSet rules = default_rules();
  const std::size_t count = rules.size();
  const auto position = [&](std::string_view id) {
    const auto& all = rules.rules();
    return std::find_if(all.begin(), all.end(), [&](const Rule& rule) { return rule.id == id; }) - all.begin();
  };
  const auto before = position("monitor-gpu-utilisation");
  rules.load_yaml(R"(rules:
  - id: monitor-gpu-utilisation
    description: We use our own dashboards.
    when: "false"
    action: advise
    message: never shown
  - id: only-aws
    description: Our policy.
    when: offering.provider != "aws"
    action: exclude
    message: "{offering.provider} is not AWS"
)",
                  "team.yaml");
  CHECK(rules.size() == count + 1);
  CHECK(position("monitor-gpu-utilisation") == before);
  CHECK(rules.find("monitor-gpu-utilisation")->description == "We use our own dashboards.");
  CHECK(rules.find("monitor-gpu-utilisation")->defined_at.file == "team.yaml");
  CHECK(rules.rules().back().id == "only-aws");
  const RuleOutcome outcome = rules.evaluate(values({{"device.kind", "gpu"}, {"offering.provider", "gcp"}}));
  CHECK(fired(outcome) == std::set<std::string>{"only-aws"});
  CHECK(outcome.exclusions[0].message == "gcp is not AWS");
}

TEST_CASE("RuleSet::load_yaml reports unknown keys, ids and values at their place", "[rules]") {
  const std::string rule = "rules:\n  - id: r1\n    description: d\n    when: device.bf16\n    action: advise\n";
  check_load_error(rule + "    mesage: hi\n", "rules.yaml:6:5", "unknown field \"mesage\" in rule \"r1\"",
                   "did you mean \"message\"?");
  check_load_error(rule + "    message: hi\n    severity: warnn\n", "rules.yaml:7:15",
                   "field \"severity\" of rule \"r1\" must be one of info, warn, tip (got \"warnn\")",
                   "did you mean \"warn\"?");
  check_load_error("rules:\n  - id: r1\n    description: d\n    when: device.bf16\n    action: exlude\n    message: m\n",
                   "rules.yaml:5:13",
                   "field \"action\" of rule \"r1\" must be one of exclude, prefer, penalize, require, set, advise (got "
                   "\"exlude\")",
                   "did you mean \"exclude\"?");
  check_load_error(rule + "    message: hi\n" + "  - id: r1\n    description: d\n    when: true\n    action: advise\n"
                           "    message: again\n",
                   "rules.yaml:7:9", "duplicate rule id \"r1\" in this file",
                   "ids are unique within a file; a later file overrides an earlier one by id");
  check_load_error(rule, "rules.yaml:2:5", "rule \"r1\" lacks the required field \"message\"");
  check_load_error("rules:\n  - id: R1\n", "rules.yaml:2:9", "rule id \"R1\" is not valid",
                   "lowercase letters, digits, '-', '.', '_', starting with a letter or digit");
  check_load_error(rule + "    message: hi\n    factor: 2\n", "rules.yaml:7:5",
                   "field \"factor\" is only for prefer and penalize rules, and rule \"r1\" is an advise rule");
  check_load_error("rules:\n  - id: r1\n    description: d\n    when: true\n    action: prefer\n    factor: 0.5\n",
                   "rules.yaml:6:13",
                   "field \"factor\" of rule \"r1\" must be a number greater than 1 and at most 1000 (got \"0.5\")",
                   "prefer multiplies the score by the factor and penalize divides it: 2 doubles or halves it");
  check_load_error("rules:\n  - id: r1\n    description: d\n    when: device.kind == \"cpu\"\n    action: set\n"
                   "    set:\n      plan.recompute: full\n",
                   "rules.yaml:4:11",
                   "the condition of a set rule may only read workload fields (got \"device.kind\")",
                   "set rules choose planner defaults before any device or plan exists");
  check_load_error("rules:\n  - id: r1\n    description: d\n    when: true\n    action: set\n"
                   "    set:\n      plan.recompte: full\n",
                   "rules.yaml:7:7", "unknown field \"plan.recompte\" in the set of rule \"r1\"",
                   "did you mean \"plan.recompute\"?");
  check_load_error("rules:\n  - id: r1\n    description: d\n    when:\n    action: advise\n    message: m\n",
                   "rules.yaml:4:5", "field \"when\" of rule \"r1\" must be a non-empty text");
  // A right-to-left override (U+202E) in a message was printed raw; the catalogue refused it (issue 31).
  check_load_error("rules:\n  - id: r1\n    description: d\n    when: true\n    action: advise\n"
                   "    message: \"cheap \\u202Eevil\"\n",
                   "rules.yaml:6:14", "field \"message\" of rule \"r1\" must be UTF-8 text without control characters",
                   "plain text (tabs are allowed)");
}

TEST_CASE("RuleSet::load_yaml puts expression errors at their column in the file", "[rules]") {
  const std::string head = "rules:\n  - id: r1\n    description: d\n    action: advise\n    message: m\n";
  // Plain scalar.
  check_load_error(head + "    when: workload.params > 1B and devise.bf16\n", "rules.yaml:6:36",
                   "unknown field \"devise.bf16\"", "did you mean \"device.bf16\"?");
  // Double-quoted, with escapes before the error.
  check_load_error(head + "    when: \"workload.task == \\\"gbdt\\\" and devise.bf16\"\n", "rules.yaml:6:42",
                   "unknown field \"devise.bf16\"", "did you mean \"device.bf16\"?");
  // Single-quoted.
  check_load_error(head + "    when: 'workload.task == \"gbdt\" and devise.bf16'\n", "rules.yaml:6:40",
                   "unknown field \"devise.bf16\"", "did you mean \"device.bf16\"?");
  // Folded block scalar: on its second line.
  check_load_error(head + "    when: >\n      workload.task == \"gbdt\"\n      and devise.bf16\n", "rules.yaml:8:11",
                   "unknown field \"devise.bf16\"", "did you mean \"device.bf16\"?");
  // Plain scalar over two lines.
  check_load_error(head + "    when: workload.task == \"gbdt\"\n      and devise.bf16\n", "rules.yaml:7:11",
                   "unknown field \"devise.bf16\"", "did you mean \"device.bf16\"?");
  // The end of the expression.
  check_load_error(head + "    when: workload.params >\n", "rules.yaml:6:28",
                   "expected a field, a value or \"(\" but found the end of the expression");
  // Message placeholders.
  check_load_error("rules:\n  - id: r1\n    description: d\n    when: true\n    action: advise\n"
                   "    message: \"params {workload.parms}\"\n",
                   "rules.yaml:6:23", "unknown field \"workload.parms\" in message placeholder",
                   "did you mean \"workload.params\"?");
  check_load_error("rules:\n  - id: r1\n    description: d\n    when: true\n    action: advise\n"
                   "    message: \"a { b\"\n",
                   "rules.yaml:6:17", "unclosed \"{\" in message",
                   "placeholders look like {workload.params}; write \"{{\" for a literal brace");
  // The caret line is the file's line.
  RuleSet rules;
  const std::optional<Error> error = load_error(rules, head + "    when: workload.parms > 1B\n");
  REQUIRE(error);
  CHECK(error->location().line_text == "    when: workload.parms > 1B");
}

TEST_CASE("RuleSet::load_yaml rejects malformed files and adds nothing", "[rules]") {
  check_load_error("", "rules.yaml", "rules file is empty", "expected a mapping with \"rules:\"");
  check_load_error("rules: 5\n", "rules.yaml:1:8", "\"rules\" must be a list", "write each rule as \"- id: ...\"");
  check_load_error("rule: []\n", "rules.yaml:1:1", "unknown field \"rule\" in the rules file", "did you mean \"rules\"?");
  check_load_error("rules: [\n", "rules.yaml:2:1", "invalid YAML: end of sequence flow not found");
  check_load_error("rules: []\n---\nrules: []\n", "rules.yaml:3:1", "the rules file holds more than one YAML document",
                   "remove the \"---\" separator or put each document in its own file");
  check_load_error("rules:\n  - 5\n", "rules.yaml:2:5", "a rule must be a mapping of fields");

  RuleSet rules;
  rules.load_yaml("rules: []\n", "empty.yaml");
  CHECK(rules.size() == 0);
  // A file with an error adds nothing, not even its valid rules before the error.
  rules.load_yaml(k_rules_yaml, "rules.yaml");
  const std::optional<Error> error = load_error(
      rules, "rules:\n  - id: new-one\n    description: d\n    when: true\n    action: advise\n    message: m\n"
             "  - id: no-aws\n    description: d\n    when: nope\n    action: advise\n    message: m\n");
  REQUIRE(error);
  CHECK(rules.size() == 6);
  CHECK(rules.find("new-one") == nullptr);
  CHECK(rules.find("no-aws")->description == "Our policy.");
}

TEST_CASE("RuleSet limits: file size and number of rules", "[rules]") {
  check_load_error("# " + std::string(k_max_rules_file_bytes, 'x'), "rules.yaml",
                   "rules file is larger than the limit of 1 MiB", "split it into several files");
  std::string many = "rules:\n";
  for (std::size_t i = 0; i <= k_max_rules; ++i) {
    many += "  - {id: r" + std::to_string(i) + ", description: d, when: \"true\", action: advise, message: m}\n";
  }
  check_load_error(many, "rules.yaml:1002:5", "more than 1000 rules", "a rule set holds at most 1000 rules");
}

TEST_CASE("Default rules load, and each has a description and a source", "[rules][defaults]") {
  const RuleSet rules = default_rules();
  CHECK(rules.size() >= 20);
  for (const Rule& rule : rules.rules()) {
    INFO(rule.id);
    CHECK_FALSE(rule.description.empty());
    CHECK_FALSE(rule.source.empty());
    CHECK(rule.action != RuleAction::set);  // the planner does not apply set rules yet
  }
}

TEST_CASE("Each default rule fires on its case and not on its near miss", "[rules][defaults]") {
  struct Case {
    std::string_view id;
    FieldValues fires;
    FieldValues quiet;
  };
  const std::vector<Case> cases{
      {"model-size-small",
       values({{"workload.params", 50e6}, {"workload.task", "pretrain"}, {"plan.device_count", 4}}),
       values({{"workload.params", 50e6}, {"workload.task", "pretrain"}, {"plan.device_count", 1}})},
      // A vision model's compute is not its parameters': many devices are no waste.
      {"model-size-small",
       values({{"workload.params", 25e6}, {"workload.task", "pretrain"}, {"plan.device_count", 8},
               {"workload.model_family", "llama"}}),
       values({{"workload.params", 25e6}, {"workload.task", "pretrain"}, {"plan.device_count", 8},
               {"workload.model_family", "vision"}})},
      {"vision-mixed-precision",
       values({{"workload.model_family", "vision"}, {"workload.precision", "fp32"}, {"device.kind", "gpu"}}),
       values({{"workload.model_family", "vision"}, {"workload.precision", "bf16-mixed"}, {"device.kind", "gpu"}})},
      {"model-size-1b",
       values({{"workload.params", 1e9}, {"workload.task", "finetune"}, {"plan.device_count", 1},
               {"device.memory_bytes", 24e9}}),
       values({{"workload.params", 1e9}, {"workload.task", "finetune"}, {"plan.device_count", 1},
               {"device.memory_bytes", 80e9}})},
      {"model-size-large", values({{"workload.params", 70e9}, {"workload.task", "pretrain"}}),
       values({{"workload.params", 70e9}, {"workload.task", "lora"}})},
      {"data-small-local", values({{"workload.dataset_bytes", 500e6}, {"workload.task", "pretrain"}}),
       values({{"workload.dataset_bytes", 5e9}, {"workload.task", "pretrain"}})},
      {"data-medium-batching", values({{"workload.dataset_bytes", 20e9}, {"workload.task", "finetune"}}),
       values({{"workload.dataset_bytes", 200e9}, {"workload.task", "finetune"}})},
      {"data-large-distributed", values({{"workload.dataset_bytes", 200e9}, {"workload.task", "pretrain"}}),
       values({{"workload.dataset_bytes", 200e9}, {"workload.task", "inference"}})},
      {"gbdt-prefers-cpu",
       values({{"workload.task", "gbdt"}, {"device.kind", "cpu"}, {"workload.dataset_bytes", 20e9}}),
       values({{"workload.task", "gbdt"}, {"device.kind", "cpu"}, {"workload.dataset_bytes", 200e9}})},
      {"gbdt-large-gpu-hist",
       values({{"workload.task", "gbdt"}, {"device.kind", "gpu"}, {"workload.dataset_bytes", 200e9}}),
       values({{"workload.task", "gbdt"}, {"device.kind", "gpu"}, {"workload.dataset_bytes", 20e9}})},
      {"gbdt-no-tpu", values({{"workload.task", "gbdt"}, {"device.kind", "tpu"}}),
       values({{"workload.task", "pretrain"}, {"device.kind", "tpu"}})},
      {"deadline-critical-fast-devices", values({{"workload.deadline_seconds", 86400.0}, {"device.fp8", true}}),
       values({{"workload.deadline_seconds", 86400.0}, {"device.fp8", false}})},
      {"deadline-critical-no-free-tier",
       values({{"workload.deadline_seconds", 86400.0}, {"offering.kind", "free-tier"}}),
       values({{"workload.deadline_seconds", 7 * 86400.0}, {"offering.kind", "free-tier"}})},
      // A full fine-tune's pipeline plan, unless Megatron-LM was named (issue 48).
      {"finetune-model-parallel-porting",
       values({{"workload.task", "finetune"}, {"plan.tensor_parallel", 1}, {"plan.pipeline_parallel", 2},
               {"device.kind", "gpu"}}),
       values({{"workload.task", "finetune"}, {"plan.tensor_parallel", 1}, {"plan.pipeline_parallel", 2},
               {"device.kind", "gpu"}, {"workload.framework", "megatron"}})},
      {"bf16-on-ampere",
       values({{"device.bf16", true}, {"workload.precision", "fp16-mixed"}, {"workload.task", "pretrain"}}),
       values({{"device.bf16", true}, {"workload.precision", "bf16-mixed"}, {"workload.task", "pretrain"}})},
      {"fp16-loss-scaling",
       values({{"device.kind", "gpu"}, {"device.bf16", false}, {"workload.precision", "fp16-mixed"},
               {"workload.task", "finetune"}}),
       values({{"device.kind", "gpu"}, {"device.bf16", true}, {"workload.precision", "fp16-mixed"},
               {"workload.task", "finetune"}})},
      // Near misses: already recomputing, and a plan with room to spare (40% of memory).
      {"recompute-when-activations-dominate",
       values({{"estimate.activations_fraction", 0.7},
               {"estimate.memory_fraction", 0.85},
               {"plan.recompute", "none"},
               {"workload.task", "pretrain"}}),
       values({{"estimate.activations_fraction", 0.7},
               {"estimate.memory_fraction", 0.85},
               {"plan.recompute", "full"},
               {"workload.task", "pretrain"}})},
      {"recompute-when-activations-dominate",
       values({{"estimate.activations_fraction", 0.7},
               {"estimate.memory_fraction", 0.85},
               {"plan.recompute", "none"},
               {"workload.task", "pretrain"}}),
       values({{"estimate.activations_fraction", 0.7},
               {"estimate.memory_fraction", 0.4},
               {"plan.recompute", "none"},
               {"workload.task", "pretrain"}})},
      {"gradient-accumulation-small-batch",
       values({{"workload.task", "pretrain"}, {"workload.micro_batch", 1}, {"plan.tokens_per_step", 16384}}),
       values({{"workload.task", "pretrain"}, {"workload.micro_batch", 1}, {"plan.tokens_per_step", 1e6}})},
      {"zero-when-states-exceed-device",
       values({{"workload.model_states_bytes", 112e9}, {"device.capacity_bytes", 80e9}, {"workload.task", "pretrain"}}),
       values({{"workload.model_states_bytes", 112e9}, {"device.capacity_bytes", 141e9}, {"workload.task", "pretrain"}})},
      {"tp-pp-when-sharding-is-not-enough",
       values({{"plan.zero_stage", 3}, {"estimate.fits", false}, {"workload.task", "pretrain"}}),
       values({{"plan.zero_stage", 3}, {"estimate.fits", true}, {"workload.task", "pretrain"}})},
      {"quantize-inference",
       values({{"workload.task", "inference"}, {"workload.weight_format", "bf16"}, {"estimate.memory_fraction", 0.95}}),
       values({{"workload.task", "inference"}, {"workload.weight_format", "int4"}, {"estimate.memory_fraction", 0.95}})},
      // Near miss: the same model served tensor-parallel.
      {"expert-parallel-load-imbalance",
       values({{"workload.task", "inference"}, {"plan.expert_parallel", 8}, {"plan.tensor_parallel", 1}}),
       values({{"workload.task", "inference"}, {"plan.expert_parallel", 1}, {"plan.tensor_parallel", 8}})},
      // Near miss: a fleet the load keeps 60% busy.
      {"serving-fleet-idles",
       values({{"workload.requests_per_s", 0.05}, {"estimate.utilisation", 0.03}, {"estimate.cost_usd", 0.39}}),
       values({{"workload.requests_per_s", 5.0}, {"estimate.utilisation", 0.6}, {"estimate.cost_usd", 0.39}})},
      {"tpu-needs-xla", values({{"device.kind", "tpu"}}), values({{"device.kind", "gpu"}})},
      {"qlora-needs-cuda", values({{"workload.task", "qlora"}, {"device.kind", "tpu"}}),
       values({{"workload.task", "qlora"}, {"device.kind", "gpu"}})},
      {"monitor-gpu-utilisation", values({{"device.kind", "gpu"}, {"workload.task", "pretrain"}}),
       values({{"device.kind", "gpu"}, {"workload.task", "gbdt"}})},
      {"profile-startup-free-tiers",
       values({{"workload.profile", "startup"}, {"offering.kind", "free-tier"}}),
       values({{"workload.profile", "team"}, {"offering.kind", "free-tier"}})},
      {"profile-startup-spot", values({{"workload.profile", "startup"}, {"offering.kind", "cloud"}}),
       values({{"workload.profile", "none"}, {"offering.kind", "cloud"}})},
      {"profile-team-committed-use",
       values({{"workload.profile", "team"}, {"offering.kind", "cloud"}, {"offering.provider", "aws"}}),
       values({{"workload.profile", "team"}, {"offering.kind", "on-prem"}, {"offering.provider", "on-prem"}})},
      {"profile-enterprise-on-prem", values({{"workload.profile", "enterprise"}, {"offering.kind", "on-prem"}}),
       values({{"workload.profile", "startup"}, {"offering.kind", "on-prem"}})},
      // An enterprise: no free tier, no marketplace, providers with a published compute SLA first.
      {"profile-enterprise-no-free-tier",
       values({{"workload.profile", "enterprise"}, {"offering.kind", "cloud"}, {"offering.session_hours", 24.0}}),
       values({{"workload.profile", "enterprise"}, {"offering.kind", "cloud"}})},
      {"profile-enterprise-no-marketplace",
       values({{"workload.profile", "enterprise"}, {"offering.marketplace", true}}),
       values({{"workload.profile", "startup"}, {"offering.marketplace", true}})},
      {"profile-enterprise-sla", values({{"workload.profile", "enterprise"}, {"offering.provider", "gcp"}}),
       values({{"workload.profile", "enterprise"}, {"offering.provider", "lambda"}})},
      {"inferentia-is-for-inference", values({{"device.id", "inferentia2"}, {"workload.task", "pretrain"}}),
       values({{"device.id", "inferentia2"}, {"workload.task", "inference"}})},
      {"deadline-tight-margin", values({{"estimate.deadline_fraction", 0.85}}),
       values({{"estimate.deadline_fraction", 0.6}})},
      {"gbdt-accelerator-not-needed",
       values({{"workload.task", "gbdt"}, {"device.kind", "gpu"}, {"workload.dataset_bytes", 20e9}}),
       values({{"workload.task", "gbdt"}, {"device.kind", "cpu"}, {"workload.dataset_bytes", 20e9}})},
  };
  const RuleSet rules = default_rules();
  std::set<std::string_view> covered;
  for (const Case& c : cases) {
    INFO(c.id);
    REQUIRE(rules.find(c.id) != nullptr);
    covered.insert(c.id);
    CHECK(fired(rules.evaluate(c.fires)).count(std::string(c.id)) == 1);
    CHECK(fired(rules.evaluate(c.quiet)).count(std::string(c.id)) == 0);
  }
  for (const Rule& rule : rules.rules()) {
    INFO(rule.id);
    CHECK(covered.count(rule.id) == 1);
  }
}

TEST_CASE("Default rule messages read well", "[rules][defaults]") {
  const RuleSet rules = default_rules();
  const RuleOutcome large = rules.evaluate(
      values({{"workload.params", 70e9}, {"workload.task", "pretrain"}, {"workload.model_states_bytes", 1.12e12}}));
  REQUIRE(large.advice.size() == 1);
  CHECK(large.advice[0].message ==
        "70.0B parameters carry 1.1 TB of weights, gradients and optimizer states: plan for many GPUs with "
        "ZeRO-3/FSDP, or a TPU slice");
  const RuleOutcome tiny = rules.evaluate(
      values({{"workload.params", 50e6}, {"workload.task", "pretrain"}, {"plan.device_count", 4}}));
  CHECK(tiny.score == Approx(0.5));
  CHECK(tiny.scored.at(0).message == "a 50M-parameter model fits one GPU or a CPU; 4 devices mostly add communication");
}

TEST_CASE("Default rules on a real workload and device", "[rules][defaults]") {
  Device device;
  device.id = "v100-16gb";
  device.kind = DeviceKind::gpu;
  device.vendor = "nvidia";
  device.memory = Bytes(16e9);
  device.peak_flops_per_s[static_cast<std::size_t>(DType::fp16)] = 125e12;
  Workload workload = testing::workload_for_params(7e9, 50e9);
  workload.precision = Precision::fp16_mixed;
  const RuleSet rules = default_rules();  // outcomes point into their rule set
  const RuleOutcome outcome = rules.evaluate(rule_field_values(workload, &device));
  CHECK(fired(outcome) == std::set<std::string>{"data-large-distributed", "fp16-loss-scaling",
                                                "monitor-gpu-utilisation", "zero-when-states-exceed-device"});
}
