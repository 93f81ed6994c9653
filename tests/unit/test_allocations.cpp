// A CI guard for the planner's speed that cannot flake (issue 12, must-have 5): instead of
// timing recommend(), count what its hot path does. Estimating a plan must not allocate:
// the allocations of a whole recommend() are those of its offerings (their candidate
// lists, contenders and outcomes) and of the report, far fewer than its plans.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/rank/ranker.hpp>
#include <mlsize/rules/rules.hpp>

#include <catch2/catch.hpp>

#include "workload_fixture.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

// AddressSanitizer brings its own allocation functions, which a replacement here would
// mismatch (new from one, delete from the other): under it the count is not taken, and
// the plain build's run of this test is the guard.
#if defined(__SANITIZE_ADDRESS__)
#define MLSIZE_COUNTS_ALLOCATIONS 0
#else
#define MLSIZE_COUNTS_ALLOCATIONS 1
#endif

namespace {
std::atomic<std::size_t> g_allocations{0};
}  // namespace

#if MLSIZE_COUNTS_ALLOCATIONS
// Counting replacements of the global allocation functions (the array and nothrow forms
// call these).
void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
#endif

using namespace mlsize;

TEST_CASE("recommend allocates per offering, not per plan", "[ranker][speed]") {
  if (!MLSIZE_COUNTS_ALLOCATIONS) {
    WARN("allocations are not counted under AddressSanitizer");
    return;
  }
  const Catalog catalog = load_default_catalog();
  const RuleSet rules = load_default_rules();
  RecommendSettings settings;
  settings.rules = &rules;
  const Workload w = testing::workload_for_params(7e9, 5e10);  // the main job's size
  const std::size_t before = g_allocations.load();
  const Report report = recommend(w, catalog, settings);
  const std::size_t allocations = g_allocations.load() - before;
  const std::size_t plans = report.plans_evaluated + report.plans_pruned;
  INFO(allocations << " allocations for " << plans << " plans over " << catalog.offerings().size() << " offerings");
  REQUIRE(plans > 10000);
  // Per offering: a few vectors of its plans and its outcome (7 each with the 429 offerings of
  // 2026-12-02), however many plans it has; per plan would be tens of thousands.
  CHECK(allocations < 10 * catalog.offerings().size());
  CHECK(allocations < plans / 5);
  CHECK(allocations < 30 * catalog.offerings().size());
}
