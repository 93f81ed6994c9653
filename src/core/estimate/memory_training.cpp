// Memory per device for training: full training, adapter tuning (LoRA, QLoRA), and the
// activations and offloading every training task adds. Formulas: docs/methodology.md#memory.

#include "core/estimate/memory_terms.hpp"

#include <mlsize/model/vision.hpp>

#include <mlsize/estimate/diffusion.hpp>
#include <mlsize/estimate/speech.hpp>

#include <mlsize/estimate/communication.hpp>

#include <algorithm>

namespace mlsize::memory_detail {
namespace {

template <class T>
struct ShardedStates {
  T weights = 0.0;
  T gradients = 0.0;
  T optimizer = 0.0;
};

// Bytes per trained parameter of each model state, before sharding.
template <class T>
struct PerParamBytes {
  T weights;
  T gradients;
  T optimizer;
};

// The ZeRO stage from which a state is sharded, as written in the formulas.
constexpr const char* k_from_zero_stage[] = {"ZeRO-0+", "ZeRO-1+", "ZeRO-2+", "ZeRO-3"};

// Per-device model states for `trained` parameters with `per_param` bytes, split by
// model parallelism and then by ZeRO across the data-parallel ranks (ZeRO paper §5:
// stage 1 shards optimizer states, 2 adds gradients, 3 adds parameters). Routed
// experts are split by expert parallelism first and ZeRO-sharded over dp / ep.
template <class T>
ShardedStates<T> shard(const T& trained, const T& experts, const PerParamBytes<T>& per_param, const Strategy& st,
                       const Degrees<T>& split) {
  const T& mp = split.model;
  const T& dp = split.data;
  const T& ep = split.expert;
  const T dense_share = (trained - experts) / mp;
  const T expert_share = experts / (mp * ep);
  const T expert_dp = maximum(T(1.0), dp / ep);
  auto sharded = [&](const T& bytes_per_param, int from_stage) {
    const bool applies = st.zero_stage >= from_stage;
    const char* condition = k_from_zero_stage[from_stage];
    return dense_share * bytes_per_param / divisor_if(applies, condition, dp) +
           expert_share * bytes_per_param / divisor_if(applies, condition, expert_dp);
  };
  return {sharded(per_param.weights, 3), sharded(per_param.gradients, 2), sharded(per_param.optimizer, 1)};
}

// torch.autocast's 16-bit weight copies for `parameters` (autocast_cache_bytes).
template <class T>
T autocast_cache(const Workload& w, const T& parameters) {
  // torch.autocast caches the 16-bit cast of each fp32 weight for the whole forward pass
  // and backward keeps it for the input gradients: 2 bytes per parameter, not sharded.
  if (w.framework != Framework::hf || !is_mixed_precision(w.precision) || !w.is_training() || w.is_adapter_tuning()) {
    return T(0.0);
  }
  return labelled("autocast's 16-bit weight copies", parameters * 2.0);
}

// Whether the fp32 gradients of bf16-mixed (state_bytes_per_param) are kept at the weights'
// width instead: ZeRO-2 and -3 shard 16-bit gradient partitions. DeepSpeed accumulates in
// fp32 under bf16 only without ZeRO (deepspeed/runtime/engine.py, get_data_types, at
// 38327e07); FSDP's sharded fp32 parameters double as the master copy, the same 16 bytes.
bool sharded_gradients_at_weight_width(const Workload& w, const Strategy& st) {
  return st.zero_stage >= 2 && w.framework != Framework::hf &&
         (w.precision == Precision::bf16_mixed || w.precision == Precision::fp8_mixed);
}

// Which bytes-per-parameter convention the gradients follow, for `--explain`
// (docs/methodology.md#model-states).
const char* gradient_convention(const Workload& w, const Strategy& st) {
  if (w.framework == Framework::hf) return "fp32 (autocast)";
  if (sharded_gradients_at_weight_width(w, st)) return "bf16 (ZeRO-2/3 partitions)";
  switch (w.precision) {
    case Precision::bf16_mixed:
    case Precision::fp8_mixed: return "fp32 (Megatron-LM under bf16)";
    case Precision::fp16_mixed: return "fp16 (ZeRO paper)";
    case Precision::fp32: return "fp32";
    case Precision::bf16: return "bf16";
  }
  return "";
}

// What training_activation_bytes (activations.cpp) counts, in short.
const char* training_activation_summary(const Workload& w, Recompute recompute) {
  // A diffusion model's, from diffusion_activation_bytes (diffusion.cpp).
  if (w.diffusion) {
    return recompute == Recompute::full
               ? "images × denoiser outputs × bytes × kept share (UNet 1/4, transformer 1/17)"
               : "images × denoiser outputs (7cs a ResNet block, 33cs a UNet transformer block, "
                 "17sh a DiT block) × bytes";
  }
  // A speech model's, from speech_activation_bytes (speech.cpp).
  if (w.speech) {
    return recompute == Recompute::full
               ? "clips × (layer inputs + one layer live + logits) × bytes"
               : "clips × (17nd an encoder layer, 20td + 2nd a decoder layer, logits 3tV) × bytes";
  }
  // A vision model's, from vision_activation_bytes (vision.cpp).
  if (w.vision) {
    const bool vit = w.vision->model.family == VisionFamily::vit;
    if (recompute == Recompute::full)
      return vit ? "images × L × 2sh × bytes/2" : "images × activations × 1.75 × bytes / 4";
    return vit ? "images × L × 34sh × bytes/2 (Korthikanti, fused attention; s = tokens)"
               : "images × activations (fvcore count at the resolution) × 1.75 saved × bytes";
  }
  const bool hf = w.framework == Framework::hf;
  if (recompute == Recompute::full) {
    return hf ? "residual bytes × sbh × L (+ one layer live) + final norm + head input + 8sbV/t (fp32 loss)"
              : "2sbh × L (+ one layer live) + sbh + 4sbh(1 + V/h)/t";
  }
  return hf ? "Σ layers: saved tensors of transformers under autocast (fp32 norms, 16-bit input casts, "
              "q/k/v, attention, FFN) + final norm + head input + 8sbV/t (fp32 loss)"
            : "Σ layers sbh-terms (Korthikanti Table 2, GQA/gated/MoE/flash) + sbh + 4sbh(1 + V/h)/t";
}

// A diffusion model's text encoders and VAE, frozen and replicated on every device unless
// the latents and text embeddings are cached (diffusion_frozen_bytes).
template <class T>
T diffusion_frozen(const Workload& w) {
  return named<T>("frozen text encoders and VAE", diffusion_frozen_bytes(w).value);
}

}  // namespace

template <class T>
void adapter_memory(const Workload& w, int device_count, const Strategy& st, const Degrees<T>& split,
                    MemoryBreakdown& memory, ExplainRows<T>& rows) {
  const Architecture& m = w.model;
  const double n = w.parameters.total;
  const double adapter_count = adapter_parameters(w);
  const T adapters = named<T>("adapters", adapter_count);
  const T base = w.task == Task::qlora ? named<T>("linear", w.parameters.linear) *
                                                 rounded<T>(bits_per_weight(WeightFormat::nf4), 3) / 8.0 +
                                             named<T>("rest", n - w.parameters.linear) * 2.0
                                       : named<T>("N", n) * (w.precision == Precision::fp32 ? 4.0 : 2.0);
  const T base_share =
      labelled("frozen base", base) / split.model / divisor_if(st.zero_stage >= 3, "ZeRO-3", split.data);
  // LoRA: PEFT keeps adapters in fp32 (autocast_adapter_dtype) and trains them as fp32
  // weights. QLoRA: the reference code (artidoro/qlora, qlora.py) casts adapters to bf16
  // and steps them with 32-bit paged AdamW: 2 + 2 bytes plus fp32 moments.
  StateBytesPerParam adapter_bytes = state_bytes_per_param(Precision::fp32, w.optimizer, m.hidden);
  if (w.task == Task::qlora) {
    adapter_bytes.weights = 2;
    adapter_bytes.gradients = 2;
  }
  const PerParamBytes<T> per_param{adapter_bytes.weights, adapter_bytes.gradients,
                                   named<T>("optimizer bytes", adapter_bytes.optimizer())};
  const ShardedStates<T> trained = shard(adapters, T(0.0), per_param, st, split);

  T weights = base_share + noted(trained.weights, w.task == Task::qlora ? "bf16" : "fp32");
  if (w.diffusion && !w.diffusion->cached) weights = weights + diffusion_frozen<T>(w);
  memory.weights = rows.term("weights", weights, [&] {
    return "base " + format_general(value_of(base)) + " bytes, adapters " + format_general(adapter_count) + " (rank " +
           format_general(w.lora_rank) + "), " + layout_text(st, device_count);
  });
  memory.gradients = rows.term("gradients", noted(trained.gradients, "only adapters are trained"),
                               [&] { return "adapters " + format_general(adapter_count); });
  memory.optimizer = rows.term("optimizer", trained.optimizer,
                               [&] { return "bytes/param " + format_general(adapter_bytes.optimizer()); });
}

template <class T>
void full_training_memory(const Workload& w, int device_count, const Strategy& st, const Degrees<T>& split,
                          MemoryBreakdown& memory, ExplainRows<T>& rows) {
  const Architecture& m = w.model;
  const double n = w.parameters.total;
  const T parameters = named<T>("N", n);
  StateBytesPerParam bytes = state_bytes_per_param(w.precision, w.optimizer, m.hidden, w.framework);
  if (sharded_gradients_at_weight_width(w, st)) bytes.gradients = bytes.weights;
  const double expert_count = routed_expert_parameters(m);
  const T experts = expert_count > 0 ? named<T>("routed experts", expert_count) : T(0.0);
  const PerParamBytes<T> per_param{bytes.weights, amount<T>(bytes.gradients, gradient_convention(w, st)),
                                   amount<T>(bytes.master, "master") + amount<T>(bytes.states, "states")};
  const ShardedStates<T> states = shard(parameters, experts, per_param, st, split);

  // Under ZeRO-3 (FSDP) each rank casts only the layers it has gathered: the cache shards too.
  const T cast_cache =
      autocast_cache(w, parameters) / split.model / divisor_if(st.zero_stage >= 3, "ZeRO-3", split.data);
  T weights = states.weights + cast_cache;
  T gradients = states.gradients;
  T gathered_gradients = T(0.0);
  if (st.zero_stage >= 3) {
    // ZeRO-3 gathers each module's full 16-bit parameters for its forward and backward,
    // and its full gradients before the reduce-scatter: DeepSpeed's estimator adds
    // 4 bytes × the largest module's parameters (stage3.py,
    // estimate_zero3_model_states_mem_needs, largest_layer_memory).
    const T largest = named<T>("largest module", largest_module_parameters(m)) / split.tensor;
    weights = weights + labelled("ZeRO-3 gathers", largest * 2.0);
    gathered_gradients = labelled("ZeRO-3 gathers", largest * 2.0);
    gradients = gradients + gathered_gradients;
  }
  // PyTorch DDP (framework hf, more than one replica) all-reduces through buckets that
  // copy the gradients unless gradient_as_bucket_view=True, which is not the default
  // (DDP docs: the view "can reduce peak memory usage ... equal to the total gradients
  // size"). Megatron's DDP keeps gradients in its buffer: no copy.
  const bool ddp_buckets = w.framework == Framework::hf && st.zero_stage == 0 && st.data_parallel(device_count) > 1;
  if (ddp_buckets) gradients = gradients + labelled("DDP's all-reduce bucket copy", states.gradients);
  T optimizer = states.optimizer;
  // The optimizer step can peak above the backward pass (framework hf): PyTorch's foreach
  // optimizers hold a tensor list of intermediates as large as the parameters while
  // the autocast copies and activations are already freed. Counted as what the step
  // needs beyond the backward peak, so that the total is the larger of the two.
  const double temporaries = foreach_temporary_bytes_per_param(w);
  if (temporaries > 0) {
    const PerParamBytes<T> step_bytes{0.0, 0.0, T(0.0) + T(temporaries)};
    const ShardedStates<T> step = shard(parameters, experts, step_bytes, st, split);
    const T activations = named<T>("activations", activation_bytes(w, st, rows));
    const T step_extra = maximum(T(0.0), step.optimizer - cast_cache - activations);
    // Nothing beyond the backward peak adds nothing (and shows nothing).
    if (value_of(step_extra) > 0) {
      optimizer = optimizer + labelled("foreach step temporaries beyond the backward peak", step_extra);
    }
  }
  const auto inputs = [&] {
    return "N " + format_general(n) +
           (expert_count > 0 ? " (routed experts " + format_general(expert_count) + ")" : "") + ", " +
           layout_text(st, device_count);
  };
  T host = T(0.0);
  if (st.offload != Offload::none) {
    // ZeRO-Offload (Ren et al. 2021, §4.1; DeepSpeed stage_1_and_2.py with
    // offload_optimizer): the 16-bit gradients stream to host memory in buckets as
    // backward makes them, where CPU-Adam steps the fp32 master weights with an fp32
    // copy of the gradient partition; the device keeps only its 16-bit weights.
    // DeepSpeed's estimate_zero2_model_states_mem_needs(cpu_offload=True): 2Ψ on the
    // device, 16Ψ on the host before its 1.5 safety factor.
    // With gradient accumulation, ZeRO-1/2 also keep each micro-step's 16-bit gradients in
    // pinned host memory between micro-steps (stage_1_and_2.py,
    // async_accumulate_grad_in_cpu_via_gpu: accumulated_grads_in_cpu, in the model's dtype).
    const bool accumulates = st.zero_stage <= 2 && micro_steps_per_step(w, st.data_parallel(device_count)) > 1;
    const double accumulated = accumulates ? (w.precision == Precision::fp32 ? 4.0 : 2.0) : 0.0;
    T host_per_param = amount<T>(4.0, "fp32 gradients") + amount<T>(std::max(bytes.master, 4.0), "master") +
                       amount<T>(bytes.states, "states");
    if (accumulates) host_per_param = host_per_param + amount<T>(accumulated, "accumulated gradients");
    const PerParamBytes<T> host_bytes{0.0, 0.0, host_per_param};
    host = shard(parameters, experts, host_bytes, st, split).optimizer;
    gradients = st.zero_stage >= 3 ? gathered_gradients : noted(T(0.0), "streamed to the host");
    optimizer = noted(T(0.0), "on the host");
  }
  if (w.diffusion && !w.diffusion->cached) weights = weights + diffusion_frozen<T>(w);
  memory.weights = rows.term("weights", weights, inputs);
  memory.gradients = rows.term("gradients", gradients, inputs);
  memory.optimizer = rows.term("optimizer", optimizer, inputs);
  if (st.offload != Offload::none) {
    memory.host =
        rows.term("host", host, [&] { return "offload " + std::string(to_string(st.offload)) + ", " + inputs(); });
  }
}

template <class T>
void add_training_tail(const Workload& w, const Strategy& st, MemoryBreakdown& memory, ExplainRows<T>& rows) {
  const Architecture& m = w.model;
  const T activations = named<T>(training_activation_summary(w, st.recompute), activation_bytes(w, st, rows));
  memory.activations = rows.term("activations", activations, [&] {
    if (w.diffusion) {
      const DiffusionWorkload& d = *w.diffusion;
      return "images " + format_general(w.micro_batch) + ", " + std::to_string(d.height) + "x" +
             std::to_string(d.width) + " px, denoiser outputs " +
             format_general(denoiser_activation_elements(d.model, d.height, d.width)) + ", recompute " +
             std::string(to_string(st.recompute));
    }
    if (w.speech) {
      const SpeechWorkload& s = *w.speech;
      return "clips " + format_general(w.micro_batch) + " of " + format_general(s.clip_seconds) + " s, " +
             format_general(s.model.source_positions) + " positions, transcript " +
             format_general(s.transcript_tokens(s.clip_seconds)) + " tokens, recompute " +
             std::string(to_string(st.recompute));
    }
    if (w.vision) {
      const VisionWorkload& v = *w.vision;
      return "images " + format_general(w.micro_batch) + ", " + std::to_string(v.height) + "x" +
             std::to_string(v.width) + " px, activations " +
             format_general(vision_activation_elements(v.model, v.height, v.width)) + ", recompute " +
             std::string(to_string(st.recompute));
    }
    return "s " + format_general(w.sequence_length) + ", b " + format_general(w.micro_batch) + ", h " +
           format_general(m.hidden) + ", a " + format_general(m.heads) + ", L " + format_general(m.layers) + ", V " +
           format_general(m.vocab) + ", attention " + std::string(to_string(w.attention)) + ", recompute " +
           std::string(to_string(st.recompute));
  });

  if (st.offload == Offload::none) return;
  // Adapters (full training has moved its states in full_training_memory): the
  // optimizer states live and update on the CPU.
  const bool params = st.offload == Offload::optimizer_and_params && st.zero_stage >= 3;
  if (!w.is_adapter_tuning() && !params) return;
  T host = named<T>("host", memory.host.value);
  if (w.is_adapter_tuning()) {
    host = named<T>("optimizer", memory.optimizer.value);
    memory.optimizer = Bytes(0);
  }
  if (params) {
    // ZeRO-Infinity: parameters stream from CPU; about two layers are resident.
    const T weights = named<T>("weights", memory.weights.value);
    const T layers = named<T>("L", std::max(1, m.layers + m.encoder_layers));
    const T resident = weights * (minimum(T(2.0), layers) / layers);
    host = host + (weights - resident);
    memory.weights = Bytes(value_of(resident));
  }
  memory.host = rows.term("host", host, [&] { return "offload " + std::string(to_string(st.offload)); });
}

template void adapter_memory(const Workload&, int, const Strategy&, const Degrees<double>&, MemoryBreakdown&,
                             ExplainRows<double>&);
template void adapter_memory(const Workload&, int, const Strategy&, const Degrees<Formula>&, MemoryBreakdown&,
                             ExplainRows<Formula>&);
template void full_training_memory(const Workload&, int, const Strategy&, const Degrees<double>&, MemoryBreakdown&,
                                   ExplainRows<double>&);
template void full_training_memory(const Workload&, int, const Strategy&, const Degrees<Formula>&, MemoryBreakdown&,
                                   ExplainRows<Formula>&);
template void add_training_tail(const Workload&, const Strategy&, MemoryBreakdown&, ExplainRows<double>&);
template void add_training_tail(const Workload&, const Strategy&, MemoryBreakdown&, ExplainRows<Formula>&);

}  // namespace mlsize::memory_detail

namespace mlsize {

double autocast_cache_bytes(const Workload& w) {
  return memory_detail::autocast_cache(w, w.parameters.total);
}

}  // namespace mlsize
