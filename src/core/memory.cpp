#include <mlsize/memory.hpp>

namespace mlsize {

StateBytesPerParam state_bytes_per_param(Precision precision, Optimizer optimizer) {
  // Optimizer state per parameter, excluding any master copy.
  double states = 0;
  switch (optimizer) {
    case Optimizer::adamw:
    case Optimizer::adam: states = 8; break;         // fp32 momentum + variance
    case Optimizer::sgd: states = 0; break;
    case Optimizer::sgd_momentum: states = 4; break; // fp32 momentum
    case Optimizer::adam_8bit: states = 2; break;    // Dettmers et al. 2022: 8-bit m and v
  }
  if (precision == Precision::fp32) return {4, 4, states};
  // Mixed precision (ZeRO paper §3.1): 16-bit weights and gradients, fp32 master weights
  // kept with the optimizer: K = 12 for Adam, so 2 + 2 + 12 = 16 bytes per parameter.
  return {2, 2, 4 + states};
}

Bytes activation_bytes(const Architecture& shape, int sequence_length, int micro_batch, Recompute recompute) {
  const double s = sequence_length;
  const double b = micro_batch;
  const double h = shape.hidden;
  const double a = shape.heads;
  const double layers = shape.layers;
  const double v = shape.vocab;
  // Korthikanti et al. 2022, eq. (1) / Table 2 "no parallelism": sbh(34 + 5as/h) per layer.
  const double per_layer = s * b * h * (34.0 + 5.0 * a * s / h);
  // §4.3: input-embedding dropout mask sbh and output layer (final norm, projection,
  // fp32 logits for the cross-entropy) 4sbh(1 + v/h).
  const double outside_layers = s * b * h + 4.0 * s * b * h * (1.0 + v / h);
  if (recompute == Recompute::none) return Bytes(per_layer * layers + outside_layers);
  // Table 2 "full recompute": only each layer's input, 2sbh, is kept; during backward one
  // layer at a time is recomputed, so its full activations are live once.
  return Bytes(2.0 * s * b * h * layers + per_layer + outside_layers);
}

MemoryBreakdown training_memory(const Workload& workload, const Architecture& shape, int data_parallel,
                                int zero_stage, Recompute recompute) {
  const StateBytesPerParam per_param = state_bytes_per_param(workload.precision, workload.optimizer);
  const double n = workload.params;
  const double nd = data_parallel;
  // ZeRO paper §5.1-5.3: stage 1 partitions optimizer states, stage 2 adds gradients,
  // stage 3 adds parameters, each across the Nd data-parallel devices.
  MemoryBreakdown memory;
  memory.weights = Bytes(n * per_param.weights / (zero_stage >= 3 ? nd : 1.0));
  memory.gradients = Bytes(n * per_param.gradients / (zero_stage >= 2 ? nd : 1.0));
  memory.optimizer = Bytes(n * per_param.optimizer / (zero_stage >= 1 ? nd : 1.0));
  memory.activations = activation_bytes(shape, workload.sequence_length, workload.micro_batch, recompute);
  memory.overhead = k_framework_overhead;
  return memory;
}

}  // namespace mlsize
