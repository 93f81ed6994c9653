#include "cli/render/format.hpp"

#include <mlsize/estimate/compute.hpp>

#include <fmt/format.h>

#include <cmath>

namespace mlsize::cli {

std::string format_gb(Bytes bytes) { return fmt::format("{:.1f}", bytes.value / k_giga); }

std::string format_duration(Seconds seconds) {
  const double s = seconds.value;
  if (s < 60.0) return fmt::format("{:.0f} s", s);
  if (s < k_seconds_per_hour) return fmt::format("{:.0f} min", s / 60.0);
  if (s < 2.0 * k_seconds_per_day) return fmt::format("{:.1f} h", s / k_seconds_per_hour);
  if (s < 365.0 * k_seconds_per_day) return fmt::format("{:.1f} d", s / k_seconds_per_day);
  return fmt::format("{:.1f} y", s / (365.0 * k_seconds_per_day));
}

std::string format_usd(Usd amount) {
  const double value = amount.value;
  if (value < 100.0) return fmt::format("${:.2f}", value);
  // Thousands separators by hand: fmt's L flag would depend on the process locale.
  std::string digits = fmt::format("{:.0f}", value);
  std::string grouped;
  const std::size_t length = digits.size();
  for (std::size_t i = 0; i < length; ++i) {
    grouped += digits[i];
    const std::size_t remaining = length - i - 1;
    if (remaining > 0 && remaining % 3 == 0) grouped += ',';
  }
  return "$" + grouped;
}

std::string format_count(double count) {
  if (count >= 1e12) return fmt::format("{:.1f}T", count / 1e12);
  if (count >= 1e9) return fmt::format("{:.1f}B", count / 1e9);
  if (count >= 1e6) return fmt::format("{:.0f}M", count / 1e6);
  if (count >= 1e3) return fmt::format("{:.0f}k", count / 1e3);
  return fmt::format("{:.0f}", count);
}

std::string format_percent(double fraction) { return fmt::format("{:.0f}%", fraction * 100.0); }

std::string describe_hardware(const Plan& plan) {
  std::string text = fmt::format("{}× {}", plan.device_count, plan.device->name);
  if (plan.offering != nullptr) {
    text += fmt::format(" ({} {}", plan.offering->provider, plan.offering->name);
    if (plan.units > 1) text += fmt::format(" ×{}", plan.units);
    text += ")";
  }
  return text;
}

std::string describe_strategy(const Strategy& strategy, int device_count, Task task) {
  if (task == Task::gbdt) return device_count > 1 ? "one machine" : "one device";
  if (task == Task::inference) {
    const int replicas = strategy.data_parallel(device_count);
    std::string text = strategy.tensor_parallel > 1 ? fmt::format("TP {}", strategy.tensor_parallel) : "1 device";
    if (strategy.pipeline_parallel > 1) text += fmt::format(", PP {}", strategy.pipeline_parallel);
    if (replicas > 1) text += fmt::format(" × {} replicas", replicas);
    return text;
  }
  std::string text = strategy.zero_stage == 0 ? "DDP" : fmt::format("ZeRO-{}", strategy.zero_stage);
  if (strategy.recompute != Recompute::none) text += fmt::format(" + {} recompute", to_string(strategy.recompute));
  if (strategy.tensor_parallel > 1) text += fmt::format(", TP {}", strategy.tensor_parallel);
  if (strategy.pipeline_parallel > 1) text += fmt::format(", PP {}", strategy.pipeline_parallel);
  if (strategy.sequence_parallel) text += ", SP";
  if (strategy.expert_parallel > 1) text += fmt::format(", EP {}", strategy.expert_parallel);
  if (strategy.offload != Offload::none) text += fmt::format(", offload {}", to_string(strategy.offload));
  return text;
}

std::string describe_rejection(const Rejection& rejection, const Workload& workload) {
  const Device& device = *rejection.device;
  switch (rejection.reason) {
    case RejectionReason::precision:
      if (workload.task == Task::inference) {
        return fmt::format("{} has no {} or {} throughput in the catalogue", device.name, to_string(DType::bf16),
                           to_string(DType::fp16));
      }
      return fmt::format("{} has no {} throughput in the catalogue (--precision {}){}", device.name,
                         to_string(compute_dtype(workload.precision)), to_string(workload.precision),
                         device.peak(DType::fp16)
                             ? fmt::format("; it trains with --precision {}", to_string(Precision::fp16_mixed))
                             : "");
    case RejectionReason::no_capacity:
      return fmt::format("neither {} nor the offering states a memory size", device.name);
    case RejectionReason::no_price: return "no price of the requested kind (see --pricing)";
    case RejectionReason::rule:
      return fmt::format("excluded by rule {}: {}", rejection.rule.rule->id, rejection.rule.message);
    case RejectionReason::memory: {
      const PlanEstimate& nearest = *rejection.nearest;
      return fmt::format("needs {} GB per device even with {} on {} devices; has {} GB",
                         format_gb(nearest.memory.total()), describe_strategy(nearest.plan.strategy, nearest.plan.device_count, workload.task),
                         nearest.plan.device_count, format_gb(nearest.capacity));
    }
    case RejectionReason::session_limit: {
      const PlanEstimate& nearest = *rejection.nearest;
      return fmt::format("takes {} but a session lasts at most {:g} h", format_duration(nearest.time),
                         *rejection.offering->limits.session_hours);
    }
    case RejectionReason::deadline: {
      const PlanEstimate& nearest = *rejection.nearest;
      return fmt::format("fastest plan ({} devices) takes {}; deadline is {}", nearest.plan.device_count,
                         format_duration(nearest.time), format_duration(*workload.deadline));
    }
    case RejectionReason::budget: {
      const PlanEstimate& nearest = *rejection.nearest;
      return fmt::format("cheapest plan that fits costs {}; budget is {}", format_usd(*nearest.cost),
                         format_usd(*workload.budget));
    }
  }
  return {};
}

}  // namespace mlsize::cli
