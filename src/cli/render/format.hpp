#pragma once
// Human-readable numbers and sentences shared by the renderers.

#include <mlsize/estimate/plan.hpp>
#include <mlsize/rank/report.hpp>
#include <mlsize/support/units.hpp>

#include <string>

namespace mlsize::cli {

std::string format_gb(Bytes bytes);            // "55.1" (GB = 10^9 bytes)
std::string format_duration(Seconds seconds);  // "45 min", "3.2 h", "23.4 d", "2.1 y"
std::string format_usd(Usd amount);            // "$7,281", "$3.42"
std::string format_count(double count);        // "7.0B", "350M", "50.0B"
std::string format_percent(double fraction);   // "40%"

std::string describe_hardware(const Plan& plan);   // "8× A100 80GB SXM4 (aws p4de.24xlarge)"
// "ZeRO-2 + full recompute", "ZeRO-1, TP 8, PP 4", or for inference "TP 2 × 4 replicas".
std::string describe_strategy(const Strategy& strategy, int device_count, Task task);
std::string describe_rejection(const Rejection& rejection, const Workload& workload);

}  // namespace mlsize::cli
