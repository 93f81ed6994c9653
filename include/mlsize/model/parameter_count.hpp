#pragma once
// Counting a transformer's parameters from its shape.

#include <mlsize/model/architecture.hpp>

namespace mlsize {

struct ParameterCount {
  double total = 0;      // unique parameters; tied matrices once
  double active = 0;     // per token: MoE routed experts replaced by the top-k; = total when dense
  double embedding = 0;  // input embedding table (+ learned position / token-type tables)
  double linear = 0;     // Linear weight matrices inside the blocks (what QLoRA quantises)
};

ParameterCount count_parameters(const Architecture& architecture);

}  // namespace mlsize
