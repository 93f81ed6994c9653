#include <mlsize/support/error.hpp>
#include <mlsize/expr/expression.hpp>
#include <mlsize/expr/field_set.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>

using namespace mlsize;

namespace {

// A small field set with one field of each kind the language distinguishes.
const FieldSet& test_fields() {
  static const FieldSet fields({
      {"workload.params", ValueType::number, FieldUnit::count, "parameters", {}},             // 0
      {"workload.task", ValueType::string, FieldUnit::none, "task", {"pretrain", "finetune", "gbdt"}},  // 1
      {"workload.dataset_bytes", ValueType::number, FieldUnit::bytes, "data", {}},           // 2
      {"workload.budget_usd", ValueType::number, FieldUnit::usd, "budget", {}},              // 3
      {"workload.deadline_seconds", ValueType::number, FieldUnit::seconds, "deadline", {}},  // 4
      {"estimate.memory_fraction", ValueType::number, FieldUnit::fraction, "fraction", {}},  // 5
      {"device.bf16", ValueType::boolean, FieldUnit::none, "bf16", {}},                      // 6
      {"device.vendor", ValueType::string, FieldUnit::none, "vendor", {}},                   // 7
      {"plan.zero_stage", ValueType::number, FieldUnit::none, "stage", {}},                  // 8
  });
  return fields;
}

constexpr std::size_t k_params = 0, k_task = 1, k_bytes = 2, k_budget = 3, k_deadline = 4, k_fraction = 5,
                      k_bf16 = 6, k_vendor = 7, k_zero = 8;

// Values for a 7B pretraining run on 200 GB, $20k, 7 days, an nvidia bf16 device.
FieldValues sample_values() {
  return {Value(7e9),      Value("pretrain"), Value(200e9), Value(20000.0), Value(7 * 86400.0),
          Value(0.9),      Value(true),       Value("nvidia"), Value(0)};
}

bool holds(std::string_view text, const FieldValues& values = sample_values()) {
  return Expression::parse(text, test_fields()).evaluate(values);
}

std::optional<Error> parse_error(std::string_view text, const SourceLocation& start = {}) {
  try {
    Expression::parse(text, test_fields(), start);
  } catch (const Error& error) {
    return error;
  }
  return std::nullopt;
}

// Checks the message, hint and 1-based column of the error parsing `text` throws.
void check_error(std::string_view text, std::string_view message, std::string_view hint, int column) {
  INFO(text);
  const std::optional<Error> error = parse_error(text);
  REQUIRE(error);
  CHECK(error->kind() == ErrorKind::input);
  CHECK(error->message() == message);
  CHECK(error->hint() == hint);
  CHECK(error->location().line == 1);
  CHECK(error->location().column == column);
}

}  // namespace

TEST_CASE("Expression compares numbers, strings and booleans", "[expression]") {
  CHECK(holds("workload.params > 1B"));
  CHECK_FALSE(holds("workload.params < 1B"));
  CHECK(holds("workload.params >= 7B and workload.params <= 7B"));
  CHECK(holds("workload.params == 7000000000"));
  CHECK(holds("workload.params != 6.7e9"));
  CHECK(holds("workload.task == \"pretrain\""));
  CHECK(holds("workload.task != \"gbdt\""));
  CHECK(holds("\"pretrain\" == workload.task"));
  CHECK(holds("device.bf16"));
  CHECK(holds("device.bf16 == true"));
  CHECK_FALSE(holds("device.bf16 == false"));
  CHECK(holds("device.vendor == \"nvidia\""));
  CHECK(holds("plan.zero_stage == 0"));
  CHECK(holds("true"));
  CHECK_FALSE(holds("false"));
}

TEST_CASE("Expression literals take the quantity units", "[expression]") {
  CHECK(holds("workload.dataset_bytes == 200GB"));
  CHECK(holds("workload.dataset_bytes > 0.18TiB and workload.dataset_bytes < 0.19TiB"));
  CHECK(holds("workload.budget_usd == $20k"));
  CHECK(holds("workload.budget_usd == 20k"));  // a count is also a plain amount
  CHECK(holds("workload.deadline_seconds == 7d"));
  CHECK(holds("workload.deadline_seconds == 168h"));
}

TEST_CASE("Expression precedence: not binds tighter than and, and than or", "[expression]") {
  CHECK(holds("false and false or true"));       // (false and false) or true
  CHECK_FALSE(holds("false and (false or true)"));
  CHECK(holds("true or true and false"));        // true or (true and false)
  CHECK_FALSE(holds("not true and false"));      // (not true) and false
  CHECK(holds("not (true and false)"));
  CHECK(holds("not not true"));
  CHECK(holds("((workload.params > 1B))"));
  CHECK(holds("(workload.params > 1B) == true"));
}

TEST_CASE("Expression in-lists", "[expression]") {
  CHECK(holds("workload.task in [\"pretrain\", \"finetune\"]"));
  CHECK_FALSE(holds("workload.task in [\"finetune\", \"gbdt\"]"));
  CHECK(holds("plan.zero_stage in [0, 1]"));
  CHECK_FALSE(holds("plan.zero_stage in [2, 3]"));
  CHECK(holds("device.bf16 in [true]"));
  CHECK(holds("workload.dataset_bytes in [100GB, 200GB]"));
}

TEST_CASE("Expression comparisons with a missing value are false", "[expression]") {
  FieldValues values = sample_values();
  values[k_budget].reset();
  values[k_bf16].reset();
  CHECK_FALSE(holds("workload.budget_usd > 0", values));
  CHECK_FALSE(holds("workload.budget_usd <= 0", values));
  CHECK_FALSE(holds("workload.budget_usd != 5", values));
  CHECK_FALSE(holds("workload.budget_usd in [1, 2]", values));
  CHECK_FALSE(holds("device.bf16", values));
  CHECK_FALSE(holds("device.bf16 == false", values));
  CHECK_FALSE(holds("device.bf16 != true", values));
  // `not` inverts the false: write the comparison you mean rather than its negation.
  CHECK(holds("not (workload.budget_usd > 0)", values));
  CHECK(holds("workload.budget_usd > 0 or workload.params > 1B", values));
  // A vector shorter than the field set reads as missing values.
  CHECK_FALSE(holds("plan.zero_stage == 0", FieldValues(2)));
  // So does a value of the wrong type.
  values[k_zero] = "zero";
  CHECK_FALSE(holds("plan.zero_stage == 0", values));
}

TEST_CASE("Expression reports the fields it reads", "[expression]") {
  const Expression expression =
      Expression::parse("plan.zero_stage == 0 and workload.params > 1B or workload.params < 10M", test_fields());
  CHECK(expression.fields() == std::vector<std::size_t>{k_params, k_zero});
  CHECK(expression.text() == "plan.zero_stage == 0 and workload.params > 1B or workload.params < 10M");
  CHECK(Expression().evaluate({}));  // default: always true
}

TEST_CASE("Expression rejects unknown fields with a suggestion", "[expression]") {
  check_error("workload.parms > 1B", "unknown field \"workload.parms\"", "did you mean \"workload.params\"?", 1);
  check_error("workload.params > 1B and devise.bf16", "unknown field \"devise.bf16\"", "did you mean \"device.bf16\"?",
              26);
  check_error("zzz == 1", "unknown field \"zzz\"", "the fields are listed in docs/rules.md#fields", 1);
  check_error("device.bf16 AND true", "expected \"and\", \"or\" or the end of the expression but found \"AND\"",
              "operators and true/false are lowercase: and", 13);
  check_error("device.bf16 == TRUE", "unknown field \"TRUE\"", "operators and true/false are lowercase: true", 16);
}

TEST_CASE("Expression syntax errors name the token and column", "[expression]") {
  check_error("", "empty expression", "write a condition such as workload.params > 1B, or true", 1);
  check_error("   ", "empty expression", "write a condition such as workload.params > 1B, or true", 4);
  check_error("workload.params = 1", "\"=\" is not an operator", "compare with \"==\"", 17);
  check_error("device.bf16 && true", "unexpected character \"&\"", "write \"and\", \"or\" and \"not\"", 13);
  check_error("!device.bf16", "unexpected character \"!\"", "write \"not\", or \"!=\" to compare", 1);
  check_error("workload.task == 'gbdt'", "unexpected character \"'\"", "strings are written in double quotes", 18);
  check_error("workload.task == \"gbdt", "unterminated string", "close it with a double quote", 18);
  check_error("workload.params >", "expected a field, a value or \"(\" but found the end of the expression", "", 18);
  check_error("(device.bf16", "expected \")\" but found the end of the expression", "every \"(\" needs a \")\"", 13);
  check_error("device.bf16 true", "expected \"and\", \"or\" or the end of the expression but found \"true\"",
              "join conditions with \"and\" or \"or\"", 13);
  check_error("1 < workload.params < 10B", "comparisons cannot be chained",
              "join them with \"and\": a < b and b < c", 21);
  check_error("device.bf16 and or true", "expected a field, a value or \"(\" but found \"or\"", "", 17);
  check_error("workload.task in \"gbdt\"", "expected \"[\" after \"in\" but found the string \"gbdt\"",
              "write a list: in [\"a\", \"b\"]", 18);
  check_error("workload.task in []", "a list needs at least one value", "", 19);
  check_error("workload.task in [\"gbdt\" \"lora\"]", "expected \",\" or \"]\" but found the string \"lora\"", "", 26);
  check_error("plan.zero_stage in [workload.params]", "expected a value in the list but found \"workload.params\"",
              "lists hold values such as [\"a\", \"b\"] or [1, 2]", 21);
}

TEST_CASE("Expression type errors are found at parse time", "[expression]") {
  check_error("workload.task == 5", "cannot compare workload.task (a string) with 5 (a number)",
              "write strings in double quotes: \"5\"", 18);
  check_error("workload.task < \"z\"", "\"<\" compares numbers, but workload.task is a string",
              "use ==, != or in [...] for strings and booleans", 15);
  check_error("device.bf16 > 1", "\">\" compares numbers, but device.bf16 is a boolean",
              "use ==, != or in [...] for strings and booleans", 13);
  check_error("plan.zero_stage in [1, \"2\"]", "the list mixes a number and a string",
              "every value in a list has the same type", 24);
  check_error("workload.task in [\"pretrain\", 2]", "the list mixes a string and a number",
              "every value in a list has the same type", 31);
  check_error("workload.params", "workload.params is a number, not a condition",
              "compare it with a value using ==, !=, <, <=, >, >= or in [...]", 1);
  check_error("device.bf16 and workload.task", "workload.task is a string, not a condition",
              "compare it with a value using ==, !=, <, <=, >, >= or in [...]", 17);
  check_error("not 5", "5 is a number, not a condition",
              "compare it with a value using ==, !=, <, <=, >, >= or in [...]", 5);
  check_error("workload.task == \"gdbt\"", "workload.task is never \"gdbt\"",
              "did you mean \"gbdt\"? (one of: pretrain, finetune, gbdt)", 18);
  check_error("workload.task in [\"pretrain\", \"lora\"]", "workload.task is never \"lora\"",
              "one of: pretrain, finetune, gbdt", 31);
}

TEST_CASE("Expression unit errors: a literal's unit must match its field's", "[expression]") {
  check_error("workload.params > 100GB", "cannot compare workload.params (a count) with 100GB (bytes)",
              "write workload.params as a count such as 7B or 350M", 19);
  check_error("workload.dataset_bytes > 10B", "cannot compare workload.dataset_bytes (bytes) with 10B (a count)",
              "write workload.dataset_bytes as a size such as 100GB or 1.5TiB (B alone means billion)", 26);
  check_error("workload.budget_usd < 48h", "cannot compare workload.budget_usd (US dollars) with 48h (seconds)",
              "write workload.budget_usd as money such as $5k or 20000", 23);
  check_error("workload.deadline_seconds < $5", "cannot compare workload.deadline_seconds (seconds) with $5 (US dollars)",
              "write workload.deadline_seconds as a duration such as 48h or 7d", 29);
  check_error("workload.params > workload.dataset_bytes",
              "cannot compare workload.params (a count) with workload.dataset_bytes (bytes)", "", 19);
  check_error("workload.params > 5xyz", "unknown unit \"xyz\" in \"5xyz\"",
              "numbers take a count suffix (7B, 350M), a size (100GB, 1.5TiB), money ($5k) or a duration (48h, 7d)",
              20);
  check_error("workload.budget_usd > $5x", "\"$5x\" is not an amount of money", "examples: 20000, 20k, $1.5M", 23);
  check_error("workload.deadline_seconds > 1w - 0", "unexpected character \"-\"", "", 32);
  // A plain number suits any unit.
  CHECK(holds("workload.dataset_bytes > 1000 and workload.deadline_seconds > 60 and estimate.memory_fraction > 0.5"));
}

TEST_CASE("Expression limits: length, depth and size", "[expression]") {
  const std::string long_text = "true" + std::string(k_max_expression_length, ' ');
  check_error(long_text, "expression is longer than 4096 characters", "split it into several rules", 4097);

  std::string deep;
  for (int i = 0; i < 65; ++i) deep += "(";
  deep += "true";
  for (int i = 0; i < 65; ++i) deep += ")";
  check_error(deep, "expression nests deeper than 64 levels", "remove parentheses or split the rule", 65);
  std::string nots;
  for (int i = 0; i < 65; ++i) nots += "not ";
  check_error(nots + "true", "expression nests deeper than 64 levels", "remove parentheses or split the rule", 257);
  std::string ok_deep;
  for (int i = 0; i < 64; ++i) ok_deep += "(";
  ok_deep += "true";
  for (int i = 0; i < 64; ++i) ok_deep += ")";
  CHECK(holds(ok_deep));

  std::string wide = "true";
  for (int i = 0; i < 127; ++i) wide += " or false";  // 128 literals + 127 ors = 255 nodes
  CHECK(holds(wide));
  wide += " or false";  // 257 nodes
  check_error(wide, "expression has more than 256 parts", "split it into several rules", 1152);
}

TEST_CASE("Expression errors point into the file when given the start", "[expression]") {
  const std::string line = "    when: workload.parms > 1B";
  const std::optional<Error> error = parse_error("workload.parms > 1B", SourceLocation{"rules.yaml", 7, 11, line});
  REQUIRE(error);
  CHECK(error->where() == "rules.yaml:7:11");
  CHECK(error->location().line_text == line);

  const std::optional<Error> later = parse_error("workload.params > 1B and workload.task == 5",
                                                 SourceLocation{"rules.yaml", 3, 11, "    when: ..."});
  REQUIRE(later);
  CHECK(later->where() == "rules.yaml:3:53");

  // A text over several lines: the error is on its second line.
  const std::optional<Error> multi = parse_error("device.bf16 and\n  workload.parms > 1B");
  REQUIRE(multi);
  CHECK(multi->location().line == 2);
  CHECK(multi->location().column == 3);
  CHECK(multi->location().line_text == "  workload.parms > 1B");
}
