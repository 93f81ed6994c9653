// Benchmarks of the hot paths (docs/performance.md, issue 12): loading the embedded data,
// planning per core (threads = 1) for training and serving, with and without the default
// rules, and the scaling of recommend() over synthetic catalogues of 100 to 10,000
// offerings. Counters: `searched` plans of the documented space per second (estimated or
// pruned as dominated), `estimated` the plans actually estimated, and `max_rss_mb` the
// process's peak resident memory so far (getrusage), since RSS is a process figure.

#include <mlsize/catalog/catalog_loader.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>
#include <mlsize/rank/ranker.hpp>
#include <mlsize/rules/rules.hpp>

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <string>

namespace {

mlsize::Workload main_job() {
  mlsize::Workload workload;
  workload.model = mlsize::architecture_from_params(7e9);
  workload.parameters = mlsize::parameter_count_from_params(7e9, workload.model);
  workload.dataset_bytes = mlsize::Bytes(200e9);
  workload.tokens = mlsize::tokens_from_bytes(*workload.dataset_bytes, workload.bytes_per_token, 1.0);
  return workload;
}

// `mlsize recommend --task inference --model llama-3-70b --tokens 1e9`: a batch-serving run.
mlsize::Workload serving_job() {
  mlsize::Workload workload;
  workload.task = mlsize::Task::inference;
  workload.model = *mlsize::model_preset("llama-3-70b");
  workload.parameters = mlsize::count_parameters(workload.model);
  workload.tokens = 1e9;
  return workload;
}

// `mlsize recommend --task gbdt --data 2TB`: trees across machines (issue 33), every CPU and
// NVIDIA GPU offering tried on 1 to 512 devices.
mlsize::Workload trees_job() {
  mlsize::Workload workload;
  workload.task = mlsize::Task::gbdt;
  workload.dataset_bytes = mlsize::Bytes(2e12);
  return workload;
}

double max_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

void report_counters(benchmark::State& state, const mlsize::Report& report) {
  const double searched = static_cast<double>(report.plans_evaluated + report.plans_pruned);
  state.counters["plans"] = searched;
  state.counters["searched_per_s"] = benchmark::Counter(searched, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["estimated_per_s"] = benchmark::Counter(static_cast<double>(report.plans_evaluated),
                                                         benchmark::Counter::kIsIterationInvariantRate);
  state.counters["max_rss_mb"] = max_rss_mb();
}

void run(benchmark::State& state, const mlsize::Workload& workload, const mlsize::Catalog& catalog,
         const mlsize::RuleSet* rules) {
  mlsize::RecommendSettings settings;
  settings.rules = rules;  // threads = 1: per core
  // As `mlsize recommend` runs it: advice and rule notes for the --top 10 shown.
  settings.advice_from = 10;
  settings.notes_for = 10;
  mlsize::Report report;
  for (auto _ : state) {
    report = mlsize::recommend(workload, catalog, settings);
    benchmark::DoNotOptimize(report);
  }
  report_counters(state, report);
}

void load_default_catalog(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(mlsize::load_default_catalog());
}
BENCHMARK(load_default_catalog)->Unit(benchmark::kMillisecond);

void load_default_rules(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(mlsize::load_default_rules());
}
BENCHMARK(load_default_rules)->Unit(benchmark::kMillisecond);

void recommend_main_job(benchmark::State& state) {
  run(state, main_job(), mlsize::load_default_catalog(), nullptr);
}
BENCHMARK(recommend_main_job)->Unit(benchmark::kMillisecond);

// With the 27 default rules, as `mlsize recommend` runs them.
void recommend_main_job_with_rules(benchmark::State& state) {
  const mlsize::RuleSet rules = mlsize::load_default_rules();
  run(state, main_job(), mlsize::load_default_catalog(), &rules);
}
BENCHMARK(recommend_main_job_with_rules)->Unit(benchmark::kMillisecond);

void recommend_serving_with_rules(benchmark::State& state) {
  const mlsize::RuleSet rules = mlsize::load_default_rules();
  run(state, serving_job(), mlsize::load_default_catalog(), &rules);
}
BENCHMARK(recommend_serving_with_rules)->Unit(benchmark::kMillisecond);

void recommend_trees_with_rules(benchmark::State& state) {
  const mlsize::RuleSet rules = mlsize::load_default_rules();
  run(state, trees_job(), mlsize::load_default_catalog(), &rules);
}
BENCHMARK(recommend_trees_with_rules)->Unit(benchmark::kMillisecond);

// A catalogue of `count` offerings: the default catalogue's devices and providers, and
// its offerings copied in turn under new ids, each copy at another price (1.00 to 1.96
// times), so that no two rank alike.
mlsize::Catalog synthetic_catalog(std::size_t count) {
  const mlsize::Catalog defaults = mlsize::load_default_catalog();
  mlsize::Catalog catalog;
  for (const mlsize::Provider& provider : defaults.providers()) catalog.put(provider);
  for (const mlsize::Device& device : defaults.devices()) catalog.put(device);
  const std::vector<mlsize::Offering>& offerings = defaults.offerings();
  for (std::size_t i = 0; i < count; ++i) {
    mlsize::Offering offering = offerings[i % offerings.size()];
    offering.id = "synthetic-" + std::to_string(i);
    const double factor = 1.0 + static_cast<double>(i % 97) / 100.0;
    if (offering.price.on_demand) offering.price.on_demand = *offering.price.on_demand * factor;
    catalog.put(std::move(offering));
  }
  catalog.check_references();
  return catalog;
}

void recommend_synthetic_catalog(benchmark::State& state) {
  const mlsize::RuleSet rules = mlsize::load_default_rules();
  const mlsize::Catalog catalog = synthetic_catalog(static_cast<std::size_t>(state.range(0)));
  run(state, main_job(), catalog, &rules);
  state.counters["offerings"] = static_cast<double>(state.range(0));
}
BENCHMARK(recommend_synthetic_catalog)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
