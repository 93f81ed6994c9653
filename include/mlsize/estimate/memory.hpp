#pragma once
// Memory per device for training, fine-tuning and inference of transformers.
// Formulas and citations: docs/methodology.md#memory.

#include <mlsize/estimate/strategy.hpp>
#include <mlsize/model/architecture.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/units.hpp>

#include <string>
#include <vector>

namespace mlsize {

struct MemoryBreakdown {
  Bytes weights;  // model weights held on the device (frozen base + adapters for LoRA)
  Bytes gradients;
  Bytes optimizer;    // optimizer states, incl. the fp32 master copy under mixed precision
  Bytes activations;  // training: stored for backward; inference: the working set of one forward
  Bytes kv_cache;     // inference only
  Bytes overhead;     // framework overhead + allocator margin
  Bytes host;         // CPU RAM per device for offloaded states (not part of total())

  Bytes total() const { return weights + gradients + optimizer + activations + kv_cache + overhead; }
};

// One term of an estimate, for `--explain`: what it is, how it is computed, from what.
struct ExplainedTerm {
  std::string term;
  std::string formula;
  std::string inputs;
  Bytes value;
};
using Explanation = std::vector<ExplainedTerm>;

// Bytes per trained parameter before any sharding (ZeRO paper §3.1 and the optimizer papers).
struct StateBytesPerParam {
  double weights = 0;
  double gradients = 0;
  double master = 0;  // fp32 master weights under mixed precision
  double states = 0;  // optimizer moments
  double optimizer() const { return master + states; }
};

// `hidden` sizes Adafactor's factored moments (one row and one column vector per matrix).
StateBytesPerParam state_bytes_per_param(Precision precision, Optimizer optimizer, int hidden,
                                         Framework framework = Framework::megatron);

// Bytes of torch.autocast's cache of 16-bit weight copies (framework hf, mixed precision,
// full training); 0 otherwise.
double autocast_cache_bytes(const Workload& workload);

// Bytes per parameter of the tensor list a foreach optimizer step holds (framework hf,
// full training): 4 for AdamW, Adam, SGD with momentum and Lion; 0 otherwise.
double foreach_temporary_bytes_per_param(const Workload& workload);

// Parameters in LoRA adapters of rank `rank` on `targets` in every layer (Hu et al. 2021).
double lora_parameters(const Architecture& model, int rank, unsigned targets);
// The adapters a LoRA or QLoRA workload trains: a language model's (lora_parameters) or a
// diffusion model's on its attention projections (diffusion_lora_parameters).
double adapter_parameters(const Workload& workload);

// Parameters of the routed experts (all of them), for expert parallelism.
double routed_expert_parameters(const Architecture& model);

// The share of a mixture of experts' routed experts that a step over `tokens` tokens reads:
// with k of E experts per token, drawn evenly, a given expert escapes all `tokens` with
// probability (1 − k/E)^tokens (Mixtral at batch 1 reads 2 of its 8 experts); 1 for a dense
// model or where every expert is chosen.
double routed_share_read(const Architecture& model, double tokens);

// The bytes of an untied input embedding table in an inference format (0 when the output
// projection shares it): a decode step gathers its tokens' rows and reads no more of it.
double input_embedding_bytes(const Workload& workload);

// Parameters of the largest single module (an embedding, a projection, an expert's
// matrix): what ZeRO-3 gathers at once.
double largest_module_parameters(const Architecture& model);

// Activation memory one device holds for backward (Korthikanti et al. 2022, generalised
// to GQA, gated MLPs, MoE and flash attention; docs/methodology.md#activations).
Bytes training_activation_bytes(const Workload& workload, const Strategy& strategy);

// KV cache per device: 2·L·kv_heads·head_dim·context·batch·bytes (MLA: the latent).
Bytes kv_cache_bytes(const Workload& workload, const Strategy& strategy);

// Everything a device holds for `workload` under `strategy` across `device_count` devices.
// With `explain`, each term is also written out with its formula and inputs.
MemoryBreakdown estimate_memory(const Workload& workload, int device_count, const Strategy& strategy,
                                Explanation* explain = nullptr);
// The same for a training plan whose activations are known already
// (training_activation_bytes(workload, strategy)): the planner shares them between the
// plans that differ only in ZeRO stage or device count.
MemoryBreakdown estimate_memory(const Workload& workload, int device_count, const Strategy& strategy,
                                Bytes activations);

}  // namespace mlsize
