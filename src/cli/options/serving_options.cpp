#include "cli/options/serving_options.hpp"

#include "cli/options/choice.hpp"

#include <mlsize/estimate/engine.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/number_format.hpp>
#include <mlsize/support/quantity.hpp>
#include <mlsize/support/units.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>

namespace mlsize::cli {

void add_serving_options(CLI::App& command, WorkloadOptions& options) {
  const ServingLoad load;
  command
      .add_option("--rate", options.rate,
                  "Requests per second to size a fleet for, e.g. 20 (with --task inference); max: as fast as the "
                  "replicas go, their saturated throughput")
      ->type_name("PER_SECOND");
  command
      .add_option("--tokens-per-day", options.tokens_per_day,
                  "The load as output tokens a day, e.g. 2B (instead of --rate)")
      ->type_name("COUNT");
  command
      .add_option("--prompt-tokens", options.prompt_tokens,
                  "Prompt tokens per request (default " + std::to_string(load.prompt_tokens) + ")")
      ->type_name("TOKENS");
  command
      .add_option("--output-tokens", options.output_tokens,
                  "Output tokens per request (default " + std::to_string(load.output_tokens) + ")")
      ->type_name("TOKENS");
  command.add_option("--ttft", options.ttft, "Longest time to first token, e.g. 500ms, 2s")->type_name("DURATION");
  command.add_option("--tpot", options.tpot, "Longest time per output token, e.g. 50ms")->type_name("DURATION");
  command
      .add_option("--max-batch", options.max_batch,
                  "Most sequences a replica decodes at once (default " + std::to_string(load.max_batch) +
                      ", vLLM's max_num_seqs)")
      ->type_name("N");
  command
      .add_option("--max-step-tokens", options.max_step_tokens,
                  "Most tokens a step takes, decodes and prompt chunks (default " +
                      std::to_string(load.max_step_tokens) + ", vLLM's max_num_batched_tokens)")
      ->type_name("TOKENS");
  command
      .add_option(
          "--replica-utilisation", options.replica_utilisation,
          "Share of a replica's throughput the load may take (default " + format_general(load.utilisation) + ")")
      ->type_name("FRACTION");
  command
      .add_option("--redundancy", options.redundancy,
                  "Spare units (machines) beyond what the load needs (default " + std::to_string(load.redundancy) +
                      ": N+1; 0 for none)")
      ->type_name("N");
  command
      .add_option("--percentile", options.percentile,
                  "The requests' latencies to report and hold to --ttft and --tpot: 50 (the median, default), 90, "
                  "99 or any in between")
      ->type_name("P");
  command
      .add_option("--batching", options.batching,
                  "How a replica batches requests: " + choice_help(load.batching) +
                      " (static: a batch runs to its last token before the next starts)")
      ->type_name("MODE");
}

// A load to serve (--rate or --tokens-per-day) with its lengths and targets; the other
// serving flags need one, and serving needs --task inference.
void resolve_serving(const WorkloadOptions& options, Workload& workload) {
  const std::pair<const std::optional<std::string>&, const char*> flags[] = {
      {options.rate, "--rate"},
      {options.tokens_per_day, "--tokens-per-day"},
      {options.prompt_tokens, "--prompt-tokens"},
      {options.output_tokens, "--output-tokens"},
      {options.ttft, "--ttft"},
      {options.tpot, "--tpot"},
      {options.max_batch, "--max-batch"},
      {options.max_step_tokens, "--max-step-tokens"},
      {options.replica_utilisation, "--replica-utilisation"},
      {options.redundancy, "--redundancy"},
      {options.percentile, "--percentile"},
      {options.batching, "--batching"}};
  const auto given = std::find_if(std::begin(flags), std::end(flags), [](const auto& flag) { return flag.first; });
  // A diffusion model's fleet serves images (resolve_diffusion).
  if (given == std::end(flags) || workload.diffusion) return;
  if (workload.task != Task::inference) {
    flag_error(given->second, std::string(given->second) + " sizes a serving fleet", "add --task inference");
  }
  if (options.rate && options.tokens_per_day) {
    flag_error("--tokens-per-day", "--rate and --tokens-per-day both give the load", "give one of them");
  }
  // Without a rate, an offline job: --tokens output tokens as fast as they come. --rate max
  // is one too, costed per million output tokens when no --tokens sizes it.
  const bool saturated = options.rate && *options.rate == "max";
  const bool offline = (!options.rate && !options.tokens_per_day) || saturated;
  if (offline && !saturated && !options.tokens && !options.data) {
    flag_error(given->second, "the load to serve is missing",
               "give --rate (requests per second, e.g. 20) or --tokens-per-day (e.g. 2B); or, for an offline job, "
               "--tokens (output tokens to generate)");
  }
  // --rate max alone is priced per million tokens: a run's bounds need the run's size.
  if (saturated && !options.tokens && !options.data && (options.budget || options.deadline)) {
    flag_error(options.budget ? "--budget" : "--deadline",
               "--rate max without --tokens is costed per million output tokens, not as a run",
               "give --tokens (the output tokens of the job) to bound its cost or time");
  }
  // A service runs on: what bounds a run does not apply.
  if (!offline && options.budget) {
    flag_error("--budget", "--budget bounds a run's cost, not a service's",
               "drop it: the ranking gives $/hour and $ per million tokens");
  }
  if (!offline && options.deadline) {
    flag_error("--deadline", "--deadline bounds a run, not a service", "give latency targets with --ttft and --tpot");
  }
  ServingLoad load;
  if (options.prompt_tokens) {
    load.prompt_tokens = parse_int_flag(*options.prompt_tokens, "--prompt-tokens", 1, 10'000'000);
  }
  if (options.output_tokens) {
    load.output_tokens = parse_int_flag(*options.output_tokens, "--output-tokens", 1, 10'000'000);
  }
  if (offline) {
    load.requests_per_s = 0;
    load.saturated = saturated;
  } else if (options.rate) {
    load.requests_per_s = parse_flag(
        "--rate", [&] { return parse_positive_number(*options.rate, "a rate in requests per second or max"); });
  } else {
    const double tokens = parse_count_flag(*options.tokens_per_day, "--tokens-per-day", "tokens a day", "B");
    load.requests_per_s = tokens / k_seconds_per_day / load.output_tokens;
  }
  if (options.ttft) load.ttft = parse_flag("--ttft", [&] { return parse_latency(*options.ttft); });
  if (options.tpot) load.tpot = parse_flag("--tpot", [&] { return parse_latency(*options.tpot); });
  // A service answers people: without targets, MLPerf Inference's server bounds hold (as when
  // sizing without a load), so that a CPU taking 18 s to a first token is not a fleet.
  if (!offline) {
    if (!load.ttft) load.ttft = Seconds(k_sizing_ttft_seconds);
    if (!load.tpot) load.tpot = Seconds(k_sizing_tpot_seconds);
  }
  const EngineProfile& engine = engine_profile(workload.engine);
  load.max_batch = engine.max_batch;
  load.max_step_tokens = engine.max_step_tokens;
  if (options.max_batch) load.max_batch = parse_int_flag(*options.max_batch, "--max-batch", 1, 1'000'000);
  if (options.max_step_tokens) {
    load.max_step_tokens = parse_int_flag(*options.max_step_tokens, "--max-step-tokens", 1, 10'000'000);
  }
  if (options.replica_utilisation) {
    load.utilisation = parse_fraction_flag(*options.replica_utilisation, "--replica-utilisation");
  }
  if (options.redundancy) {
    if (offline) flag_error("--redundancy", "an offline job has no replicas to keep spare", "drop --redundancy");
    load.redundancy = parse_int_flag(*options.redundancy, "--redundancy", 0, 1'000'000);
  }
  if (options.percentile) {
    load.percentile = parse_int_flag(*options.percentile, "--percentile", 50, 99);
    if (offline) flag_error("--percentile", "an offline job has no requests waiting", "drop --percentile");
  }
  if (options.batching) load.batching = parse_choice<Batching>("--batching", *options.batching);
  // The memory of a sequence is the prompt and output it holds.
  workload.context = load.prompt_tokens + load.output_tokens;
  workload.serving = load;
}

void size_without_load(const WorkloadOptions& options, Workload& workload) {
  if (workload.task != Task::inference || workload.serving || workload.samples_are_tokens() || options.tokens ||
      options.data || options.batch) {
    return;
  }
  ServingLoad load;
  load.sizing = true;
  load.redundancy = 0;
  // A sequence of the context: the default 200 output tokens after its prompt (half and
  // half for a context of 400 or less).
  load.output_tokens =
      workload.context > 2 * load.output_tokens ? load.output_tokens : std::max(1, workload.context / 2);
  load.prompt_tokens = std::max(1, workload.context - load.output_tokens);
  // What a replica must give each user: MLPerf Inference's server latency bounds for
  // Llama-2-70B (mlcommons/inference loadgen/mlperf.conf: "llama2-70b.Server.ttft_latency =
  // 2000", "llama2-70b.Server.tpot_latency = 200", in ms), so that a device decoding below
  // 5 tokens/s per user (a CPU holding a 70B model) is not the answer.
  load.ttft = Seconds(k_sizing_ttft_seconds);
  load.tpot = Seconds(k_sizing_tpot_seconds);
  workload.context = load.prompt_tokens + load.output_tokens;
  workload.serving = load;
}

// Inference holds at most the positions the model takes: a default --context shrinks to
// them (GPT-2's 1024), a longer prompt + output or --context is an error, not an estimate
// for a model that cannot read it.
void check_context(const WorkloadOptions& options, Workload& workload) {
  const int positions = workload.model.max_positions;
  if (workload.task != Task::inference || positions <= 0 || workload.context <= positions) return;
  if (!workload.serving && !options.context) {
    workload.context = positions;
    if (!options.tokens && !options.data) workload.tokens = static_cast<double>(workload.context) * workload.batch;
    return;
  }
  const std::string flag =
      workload.serving ? (options.prompt_tokens ? "--prompt-tokens" : "--output-tokens") : "--context";
  const std::string what = workload.serving ? fmt::format("prompt + output ({} tokens)", workload.context)
                                            : fmt::format("{} tokens", workload.context);
  flag_error(flag, fmt::format("{} is more than the {} positions {} takes", what, positions, workload.model.name),
             fmt::format("at most {} tokens (a model with a longer context takes more)", positions));
}

}  // namespace mlsize::cli
