#pragma once
// Workloads for tests: a model known by its size only, or a preset.

#include <mlsize/model/architecture.hpp>
#include <mlsize/model/workload.hpp>

namespace mlsize::testing {

// A training workload for a `params`-parameter model with the GPT-3-like estimated shape.
inline Workload workload_for_params(double params, double tokens = 1e9) {
  Workload workload;
  workload.model = architecture_from_params(params);
  workload.parameters = parameter_count_from_params(params, workload.model);
  workload.tokens = tokens;
  return workload;
}

}  // namespace mlsize::testing
