// Benchmarks of the hot paths: loading the embedded catalogue and planning the main job.
// Targets (docs/performance.md): catalogue load < 50 ms, recommend for the main job < 5 ms
// (< 15 ms with the default rules).

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/rank/ranker.hpp>
#include <mlsize/rules/rules.hpp>

#include <benchmark/benchmark.h>

namespace {

mlsize::Workload main_job() {
  mlsize::Workload workload;
  workload.model = mlsize::architecture_from_params(7e9);
  workload.parameters = mlsize::parameter_count_from_params(7e9, workload.model);
  workload.dataset_bytes = mlsize::Bytes(200e9);
  workload.tokens = mlsize::tokens_from_bytes(*workload.dataset_bytes, workload.bytes_per_token, 1.0);
  return workload;
}

void load_default_catalog(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(mlsize::load_default_catalog());
}
BENCHMARK(load_default_catalog)->Unit(benchmark::kMillisecond);

void recommend_main_job(benchmark::State& state) {
  const mlsize::Catalog catalog = mlsize::load_default_catalog();
  const mlsize::Workload workload = main_job();
  std::size_t plans = 0;
  for (auto _ : state) {
    const mlsize::Report report = mlsize::recommend(workload, catalog, mlsize::RecommendSettings{});
    plans = report.plans_evaluated;
    benchmark::DoNotOptimize(report);
  }
  state.counters["plans"] = static_cast<double>(plans);
  state.counters["plans_per_s"] =
      benchmark::Counter(static_cast<double>(plans), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(recommend_main_job)->Unit(benchmark::kMillisecond);

// The same with the 27 default rules evaluated on every plan: the rules' share of the
// planner's time is the difference between this and recommend_main_job.
void recommend_main_job_with_rules(benchmark::State& state) {
  const mlsize::Catalog catalog = mlsize::load_default_catalog();
  const mlsize::RuleSet rules = mlsize::load_default_rules();
  const mlsize::Workload workload = main_job();
  mlsize::RecommendSettings settings;
  settings.rules = &rules;
  for (auto _ : state) benchmark::DoNotOptimize(mlsize::recommend(workload, catalog, settings));
}
BENCHMARK(recommend_main_job_with_rules)->Unit(benchmark::kMillisecond);

void load_default_rules(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(mlsize::load_default_rules());
}
BENCHMARK(load_default_rules)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
