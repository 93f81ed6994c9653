// Tail latencies of a fleet under its load (docs/methodology.md#percentiles): the sequences in
// flight as an M/G/∞ queue, prompt admission as an M/M/c one.

#include <mlsize/estimate/serving.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace mlsize {
namespace {

// The normal distribution's quantile, by bisection on erfc (p in (0, 1)). A run asks for
// one p, for each plan it times (100 erfc calls, 6% of a serving run's instructions): the
// last answer is kept, per thread, as planning threads share no state.
double normal_quantile(double p) {
  thread_local std::pair<double, double> last{std::numeric_limits<double>::quiet_NaN(), 0.0};
  if (p == last.first) return last.second;
  double low = -10;
  double high = 10;
  for (int i = 0; i < 100; ++i) {
    const double middle = (low + high) / 2;
    (0.5 * std::erfc(-middle / std::sqrt(2.0)) < p ? low : high) = middle;
  }
  last = {p, (low + high) / 2};
  return last.second;
}

// Erlang's C formula: the probability that an arrival waits in an M/M/c queue with offered
// load `a` = λ/μ (a < c), by the Erlang B recursion. Where (1 − ρ)·√c > 6 it is below 1e-8
// (Halfin and Whitt 1981) and taken as 0, which spares a long recursion for large fleets.
double erlang_c(double servers, double a) {
  const double rho = a / servers;
  if ((1 - rho) * std::sqrt(servers) > 6) return 0;
  double b = 1;
  for (double k = 1; k <= servers; ++k) b = a * b / (k + a * b);
  return b / (1 - rho * (1 - b));
}

}  // namespace

TailLatency tail_latency(const Workload& w, const ServingLoad& load, const Replica& replica, int largest,
                         const ReplicaEstimate& at_load, int replicas) {
  TailLatency tail;
  tail.percentile = load.percentile;
  tail.ttft = at_load.ttft;
  tail.tpot = at_load.decode_step;
  if (replicas <= 0 || load.requests_per_s <= 0) return tail;
  const double p = load.percentile / 100.0;
  // Sequences in flight: arrivals are Poisson and each stays its decode, so their number
  // on a replica is Poisson around the mean that Little's law gives (an M/G/∞ queue). A
  // token waits for the step of that many; the engine runs at most `largest`.
  const double mean = at_load.batch;
  const double z = normal_quantile(p);
  const double in_flight = std::ceil(mean + z * std::sqrt(mean) + (z * z - 1) / 6);
  const int batch = std::clamp(static_cast<int>(in_flight), at_load.batch, std::max(at_load.batch, largest));
  tail.tpot = batch == at_load.batch ? at_load.decode_step : estimate_replica(w, load, replica, batch).decode_step;
  if (load.batching == Batching::fixed) {
    // A request waits for the batch in progress to end, uniformly over its cycle: at p, p of
    // a cycle (the mean, half of one, is in the TTFT).
    const double cycle = at_load.requests_per_s > 0 ? at_load.batch / at_load.requests_per_s : 0;
    tail.queueing = Seconds(std::max(0.0, (p - 0.5) * cycle));
    tail.ttft = Seconds(at_load.ttft.value + tail.queueing.value);
    tail.prefill_utilisation = load.requests_per_s / replicas * at_load.prefill.value;
    return tail;
  }
  // Prompts wait for admission: a replica prefills one prompt at a time at its full rate
  // (prefill is compute-bound: prompts sharing a step share its FLOPs), busy for one
  // prompt's prefill; every scheduler of the fleet is a server. An M/M/c queue (Erlang C;
  // prompt lengths vary, so service times are taken exponential) gives P(W > t) =
  // C·e^(−(cμ − λ)t).
  const double servers = static_cast<double>(replicas) * replica.expert_parallel;
  const double service = at_load.prefill.value + k_first_token_overhead_s;
  const double a = load.requests_per_s * service;
  tail.prefill_utilisation = a / servers;
  if (tail.prefill_utilisation >= 1) {
    tail.queueing = Seconds(std::numeric_limits<double>::infinity());
  } else {
    const double waits = erlang_c(servers, a);
    const double rate = servers / service - load.requests_per_s;
    tail.queueing = Seconds(waits > 1 - p ? std::log(waits / (1 - p)) / rate : 0.0);
  }
  tail.ttft = Seconds(at_load.ttft.value + tail.queueing.value);
  return tail;
}

}  // namespace mlsize
