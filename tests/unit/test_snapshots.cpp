// The compiled-in snapshots of the default catalogue, rules and model presets: the binary
// reads it instead of parsing YAML, so it must be the YAML's catalogue, field for field.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/catalog/catalog_snapshot.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/model_snapshot.hpp>
#include <mlsize/rules/rules.hpp>
#include <mlsize/rules/rules_snapshot.hpp>
#include <mlsize/support/embedded_data.hpp>
#include <mlsize/support/error.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <utility>

using namespace mlsize;

namespace {

void check_same(const Catalog& a, const Catalog& b) {
  REQUIRE(a.devices().size() == b.devices().size());
  REQUIRE(a.offerings().size() == b.offerings().size());
  REQUIRE(a.providers().size() == b.providers().size());
  for (std::size_t i = 0; i < a.devices().size(); ++i) {
    INFO("device " << a.devices()[i].id);
    CHECK(a.devices()[i] == b.devices()[i]);
  }
  for (std::size_t i = 0; i < a.offerings().size(); ++i) {
    INFO("offering " << a.offerings()[i].id);
    CHECK(a.offerings()[i] == b.offerings()[i]);
  }
  CHECK(a.providers() == b.providers());
}

}  // namespace

TEST_CASE("the compiled-in catalogue is the embedded YAML's, every field of every entry", "[snapshot]") {
  // Defaulted operator== on Device, Offering and Provider compares every member, so a field
  // added to the structs but not to the snapshot fails here.
  check_same(load_default_catalog(), load_default_catalog_yaml());
  CHECK(load_default_catalog().find_device("h100") != nullptr);  // aliases are indexed again
}

TEST_CASE("a snapshot round-trips, and a damaged one is refused", "[snapshot]") {
  const Catalog yaml = load_default_catalog_yaml();
  const std::string bytes = write_catalog_snapshot(yaml);
  // The offerings' provider terms are shared again once read (load_default_catalog).
  Catalog read = read_catalog_snapshot(bytes);
  read.check_references();
  check_same(read, yaml);
  CHECK_THROWS_AS(read_catalog_snapshot(std::string_view(bytes).substr(0, bytes.size() / 2)), Error);
  CHECK_THROWS_AS(read_catalog_snapshot(bytes + "x"), Error);
  std::string other_version = bytes;
  other_version[0] = static_cast<char>(other_version[0] + 1);
  CHECK_THROWS_AS(read_catalog_snapshot(other_version), Error);
  CHECK(default_catalog_snapshot() == bytes);  // the build compiled in the current data
}

TEST_CASE("a scoped read builds one offering, its device and every provider, and counts the rest", "[snapshot]") {
  const Catalog all = load_default_catalog();
  REQUIRE(all.offerings().size() > 100);
  // The span of dates the report's provenance states for the whole catalogue.
  std::string oldest = all.devices().front().as_of;
  std::string newest = oldest;
  const auto span = [&](const std::string& as_of) {
    oldest = std::min(oldest, as_of);
    newest = std::max(newest, as_of);
  };
  for (const Device& d : all.devices()) span(d.as_of);
  for (const Offering& o : all.offerings()) span(o.as_of);
  for (const Offering& wanted : all.offerings()) {  // every one: devices named by alias too
    INFO(wanted.id);
    const Catalog one = load_default_catalog(wanted.id);
    REQUIRE(one.offerings().size() == 1);
    CHECK(one.offerings().front() == wanted);  // its provider's terms shared too
    REQUIRE(one.devices().size() == 1);
    CHECK(one.devices().front() == *all.find_device(wanted.device_id));
    CHECK(one.find_device(wanted.device_id) == &one.devices().front());
    CHECK(one.providers() == all.providers());
    CHECK(one.unread().offerings == all.offerings().size() - 1);
    CHECK(one.unread().devices == all.devices().size() - 1);
    CHECK(std::min({one.unread().oldest_as_of, wanted.as_of, one.devices().front().as_of}) == oldest);
    CHECK(std::max({one.unread().newest_as_of, wanted.as_of, one.devices().front().as_of}) == newest);
  }
  CHECK(all.unread().offerings == 0);
  CHECK(all.unread().devices == 0);
  // An id it lacks: no offering or device built, all of them counted.
  const Catalog none = load_default_catalog("no-such-offering");
  CHECK(none.offerings().empty());
  CHECK(none.devices().empty());
  CHECK(none.unread().offerings == all.offerings().size());
  CHECK(none.unread().devices == all.devices().size());
}

TEST_CASE("the compiled-in rules are the embedded YAML's, every field of every rule", "[snapshot]") {
  const RuleSet yaml = load_default_rules_yaml();
  for (const RuleSet& rules : {load_default_rules(), read_rules_snapshot(write_rules_snapshot(yaml))}) {
    REQUIRE(rules.size() == yaml.size());
    for (std::size_t i = 0; i < yaml.size(); ++i) {
      const Rule& a = rules.rules()[i];
      const Rule& b = yaml.rules()[i];
      INFO("rule " << b.id);
      CHECK(a.id == b.id);
      CHECK(a.description == b.description);
      CHECK(a.when.text() == b.when.text());
      CHECK(a.when.fields() == b.when.fields());
      // The parsed trees, node for node: the snapshot stores them rather than parsing again.
      for (const auto& [x, y] : {std::pair(&a.when, &b.when), std::pair(&a.require, &b.require)}) {
        REQUIRE(x->nodes().size() == y->nodes().size());
        for (std::size_t k = 0; k < x->nodes().size(); ++k) {
          const Expression::Node& m = x->nodes()[k];
          const Expression::Node& n = y->nodes()[k];
          CHECK(m.op == n.op);
          CHECK(m.type == n.type);
          CHECK(m.lhs == n.lhs);
          CHECK(m.rhs == n.rhs);
          CHECK(m.field == n.field);
          CHECK(m.literal == n.literal);
          CHECK(m.list == n.list);
        }
      }
      CHECK(a.action == b.action);
      CHECK(a.severity == b.severity);
      CHECK(a.source == b.source);
      CHECK(a.message.text() == b.message.text());
      CHECK(a.factor == b.factor);
      CHECK(a.require.text() == b.require.text());
      CHECK(a.set_recompute == b.set_recompute);
      CHECK(a.defined_at == b.defined_at);
    }
  }
  CHECK(default_rules_snapshot() == write_rules_snapshot(yaml));
  CHECK_THROWS_AS(read_rules_snapshot(default_rules_snapshot().substr(0, 10)), Error);
}

TEST_CASE("the compiled-in model presets are their config.json's, every field", "[snapshot]") {
  const std::vector<std::string> names = model_preset_names();
  REQUIRE(names.size() >= 18);
  for (const std::string& name : names) {
    INFO(name);
    const std::optional<Architecture> compiled = model_preset(name);
    const std::optional<Architecture> parsed = load_model_preset_json(name);
    REQUIRE(compiled.has_value());
    REQUIRE(parsed.has_value());
    CHECK(*compiled == *parsed);
  }
  // MoE, MLA, sliding windows and encoder-decoder shapes are among them.
  CHECK(model_preset("mixtral-8x7b")->moe.experts == 8);
  CHECK(model_preset("deepseek-v2-lite")->mla.has_value());
  CHECK(model_preset("mistral-7b")->sliding_window.has_value());
  CHECK(model_preset("t5-base")->encoder_layers == 12);
  CHECK_FALSE(model_preset("no-such-model").has_value());
  CHECK_THROWS_AS(read_model_snapshot(default_models_snapshot().substr(1)), Error);
}
