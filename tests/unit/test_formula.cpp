#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/formula.hpp>
#include <mlsize/estimate/memory.hpp>

#include "workload_fixture.hpp"

#include <catch2/catch.hpp>

using namespace mlsize;

TEST_CASE("Formula computes its value with the same double operations", "[formula]") {
  const double n = 6.73842e9;
  const double mp = 3;
  const Formula f = Formula::input("N", n) / Formula::input("t", mp) * 2.0 / 7.0 + 0.1;
  CHECK(f.value() == n / mp * 2.0 / 7.0 + 0.1);
  CHECK(maximum(Formula(1.0), Formula::input("x", 0.5)).value() == 1.0);
  CHECK(minimum(Formula::input("c", 4096), Formula::input("w", 1024)).value() == 1024);
}

TEST_CASE("Formula prints factors first, then divisors", "[formula]") {
  const Formula n = Formula::input("N", 7e9);
  const Formula mp = Formula::input("(t·p)", 1);
  const Formula dp = Formula::input("dp", 8);
  CHECK((n / mp * 4.0 / Formula::divisor_if(true, "ZeRO-3", dp)).text() == "N × 4 / (t·p) [/ dp at ZeRO-3]");
  CHECK((n / Formula::divisor_if(false, "ZeRO-2+", dp)).value() == 7e9);
  CHECK((Formula::input("linear", 5) * Formula::rounded(4.126953125, 3) / 8.0).text() == "linear × 4.127/8");
  CHECK((Formula::input("a", 1) / (Formula::input("b", 2) + Formula::input("c", 3))).text() == "a / (b + c)");
  CHECK((Formula::input("a", 1) - (Formula::input("b", 2) + Formula::input("c", 3))).text() == "a − (b + c)");
  CHECK((Formula::input("a", 1) + (Formula::input("b", 2) - Formula::input("c", 3))).text() == "a + b − c");
  CHECK((n * (Formula::amount(4, "master") + Formula::amount(8, "states"))).text() == "N × (4 master + 8 states)");
}

TEST_CASE("Formula leaves out plain zeros and ones, never named inputs", "[formula]") {
  const Formula n = Formula::input("N", 7e9);
  CHECK((n / 1.0 * 2.0 + Formula(0.0) * n).text() == "N × 2");
  CHECK(((n - 0.0) / Formula::divisor_if(true, "ZeRO-3", 1.0)).text() == "N");
  CHECK((n * Formula::input("margin", 0) + Formula::input("kv_cache", 0)).text() == "N × margin + kv_cache");
}

TEST_CASE("Formula labels and notes", "[formula]") {
  const Formula base = Formula::input("linear", 1) * 2.0 + Formula::input("rest", 1) * 2.0;
  CHECK((base.labelled("frozen base") + Formula::input("adapters", 1).noted("bf16")).text() ==
        "frozen base (linear × 2 + rest × 2) + adapters (bf16)");
  CHECK((Formula::input("N", 1) * 2.0).labelled("copies").text() == "copies N × 2");
}

TEST_CASE("estimate_memory explains with the values it returns", "[formula][memory]") {
  Workload w = testing::workload_for_params(7e9);
  Strategy st;
  st.zero_stage = 3;
  st.tensor_parallel = 2;
  Explanation explanation;
  const MemoryBreakdown explained = estimate_memory(w, 16, st, &explanation);
  const MemoryBreakdown plain = estimate_memory(w, 16, st);
  CHECK(explained.total().value == plain.total().value);
  REQUIRE(explanation.size() == 5);
  CHECK(explanation[0].term == "weights");
  CHECK(explanation[0].value.value == plain.weights.value);
  CHECK(explanation[0].formula == "N × 2 / (t·p) [/ dp at ZeRO-3] + ZeRO-3 gathers largest module × 2 / t");
  CHECK(explanation[2].formula == "N × (4 master + 8 states) / (t·p) [/ dp at ZeRO-1+]");
}

TEST_CASE("run_flops: inference 2·N·D, training per training_flops", "[compute]") {
  Workload w = testing::workload_for_params(7e9, 1e9);
  CHECK(run_flops(w, Recompute::full).value == training_flops(w.parameters.active, 1e9, Recompute::full).value);
  w.task = Task::inference;
  CHECK(run_flops(w, Recompute::none).value == inference_flops(w.parameters.active, 1e9).value);
}
