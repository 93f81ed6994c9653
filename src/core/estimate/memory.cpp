// Memory per device: the shared helpers, inference and gbdt, and estimate_memory, which
// picks the part for the task (training: memory_training.cpp). Formulas and citations:
// docs/methodology.md#memory.

#include <mlsize/estimate/diffusion.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/estimate/speech.hpp>
#include <mlsize/estimate/vision.hpp>

#include <mlsize/estimate/gbdt.hpp>

#include "core/estimate/memory_terms.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace mlsize {
namespace {

// Linear layers of one block as (inputs, outputs) for LoRA.
double lora_block(const Architecture& m, int rank, unsigned targets, double ffn_width, double ffn_copies) {
  const double h = m.hidden;
  const double q = static_cast<double>(m.heads) * m.head_dim;
  const double kv = m.kv_dim();
  double inputs_plus_outputs = 0;
  if (targets & k_lora_q) inputs_plus_outputs += h + q;
  if (targets & k_lora_k) inputs_plus_outputs += h + kv;
  if (targets & k_lora_v) inputs_plus_outputs += h + kv;
  if (targets & k_lora_o) inputs_plus_outputs += q + h;
  double ffn = 0;
  if ((targets & k_lora_gate) && m.mlp == MlpKind::gated) ffn += h + ffn_width;
  if (targets & k_lora_up) ffn += h + ffn_width;
  if (targets & k_lora_down) ffn += ffn_width + h;
  return rank * (inputs_plus_outputs + ffn * ffn_copies);
}

}  // namespace

StateBytesPerParam state_bytes_per_param(Precision precision, Optimizer optimizer, int hidden, Framework framework) {
  // Moments are fp32 except under pure bf16, where they are kept in bf16.
  const double moment = precision == Precision::bf16 ? 2.0 : 4.0;
  double states = 0;
  switch (optimizer) {
    case Optimizer::adamw:
    case Optimizer::adam: states = 2 * moment; break;  // momentum and variance
    case Optimizer::sgd: states = 0; break;
    case Optimizer::sgd_momentum:
    case Optimizer::lion: states = moment; break;  // Chen et al. 2023: Lion keeps momentum only
    case Optimizer::adam_8bit:
      states = 2.0;
      break;  // Dettmers et al. 2022: 8-bit m and v
    // Shazeer & Stern 2018: no first moment; the second moment of an r×c matrix is
    // factored into r + c values, about 2/h per parameter for h-wide matrices.
    case Optimizer::adafactor: states = moment * 2.0 / std::max(1, hidden); break;
  }
  // PyTorch AMP (framework hf) keeps fp32 weights and gradients; the optimizer steps them
  // directly, so there is no separate master copy (its 16-bit casts: autocast_cache_bytes).
  if (framework == Framework::hf && is_mixed_precision(precision)) return {4, 4, 0, states};
  switch (precision) {
    case Precision::fp32: return {4, 4, 0, states};
    case Precision::bf16:
      return {2, 2, 0, states};  // pure bf16: no master copy
    // ZeRO paper §3.1: fp16 weights and gradients plus an fp32 master copy (K = 12 for
    // Adam: 2 + 2 + 12 = 16 bytes).
    case Precision::fp16_mixed: return {2, 2, 4, states};
    // bf16 has too few mantissa bits to sum gradients over micro-batches and ranks:
    // Megatron-LM forces fp32 gradient accumulation under bf16 and documents 18 bytes
    // per parameter (2 + 4 + 12; docs/methodology.md#model-states). fp8-mixed is the same
    // (Transformer Engine keeps bf16 weights and casts to fp8 inside the matrix
    // multiplications only).
    case Precision::bf16_mixed:
    case Precision::fp8_mixed: return {2, 4, 4, states};
  }
  return {2, 4, 4, states};
}

double adapter_parameters(const Workload& w) {
  if (w.diffusion) return diffusion_lora_parameters(w.diffusion->model, w.lora_rank);
  if (w.speech) return speech_lora_parameters(w.speech->model, w.lora_rank);
  return lora_parameters(w.model, w.lora_rank, w.lora_targets);
}

double lora_parameters(const Architecture& m, int rank, unsigned targets) {
  const int moe_layers = moe_layer_count(m);
  const int dense_layers = m.layers - moe_layers;
  double total = dense_layers * lora_block(m, rank, targets, m.intermediate, 1.0);
  if (moe_layers > 0) {
    // PEFT's all-linear also wraps every expert's matrices.
    const double copies = m.moe.experts + m.moe.shared_experts;
    total += moe_layers * lora_block(m, rank, targets, m.moe.expert_intermediate, copies);
  }
  // Encoder layers of an encoder-decoder model carry the same adapters.
  total += m.encoder_layers * lora_block(m, rank, targets, m.intermediate, 1.0);
  return total;
}

double routed_expert_parameters(const Architecture& m) {
  if (!m.is_moe()) return 0;
  const double matrices = m.mlp == MlpKind::gated ? 3.0 : 2.0;
  return moe_layer_count(m) * static_cast<double>(m.moe.experts) * matrices * m.hidden * m.moe.expert_intermediate;
}

double routed_share_read(const Architecture& m, double tokens) {
  if (!m.is_moe() || m.moe.experts <= m.moe.experts_per_token) return 1.0;
  return 1.0 - std::pow(1.0 - static_cast<double>(m.moe.experts_per_token) / m.moe.experts, tokens);
}

double input_embedding_bytes(const Workload& w) {
  const Architecture& m = w.model;
  if (m.tied_embeddings || m.vocab <= 0) return 0;
  // Formats that quantise linear layers only (or only the experts) keep it in 16 bits.
  const bool whole = !quantizes_linear_only(w.weight_format) && w.weight_format != WeightFormat::mxfp4;
  return static_cast<double>(m.vocab) * m.hidden * (whole ? bits_per_weight(w.weight_format) / 8 : 2.0);
}

double largest_module_parameters(const Architecture& m) {
  const double h = m.hidden;
  const double q = static_cast<double>(m.heads) * m.head_dim;
  const double kv = m.kv_dim();
  const double attention = m.fused_qkv ? h * (q + 2 * kv) : h * q;
  // An MoE model's dense layers (DeepSeek's first ones) keep their own, wider MLP.
  double width = m.intermediate;
  if (m.is_moe()) {
    width =
        moe_layer_count(m) < m.layers ? std::max(m.intermediate, m.moe.expert_intermediate) : m.moe.expert_intermediate;
  }
  const double fused = m.mlp == MlpKind::gated && m.fused_gate_up ? 2.0 : 1.0;
  double mlp = h * width * fused;
  // gpt-oss keeps all of a layer's experts in one tensor per projection.
  if (m.is_moe() && m.fused_experts) mlp = std::max(mlp, m.moe.experts * h * m.moe.expert_intermediate * fused);
  return std::max({static_cast<double>(m.vocab) * h, attention, mlp});
}

double foreach_temporary_bytes_per_param(const Workload& w) {
  // torch.optim docs: the foreach implementations keep "a tensorlist of intermediates"
  // (Adam/AdamW: the square roots of the second moments; SGD momentum, Lion: one update
  // list), fp32 like the weights they update. 8-bit Adam (bitsandbytes) and Adafactor step
  // parameter by parameter.
  if (w.framework != Framework::hf || !w.is_training() || w.is_adapter_tuning()) return 0;
  switch (w.optimizer) {
    case Optimizer::adamw:
    case Optimizer::adam:
    case Optimizer::sgd_momentum:
    case Optimizer::lion: return w.precision == Precision::bf16 ? 2.0 : 4.0;
    case Optimizer::sgd:
    case Optimizer::adam_8bit:
    case Optimizer::adafactor: return 0;
  }
  return 0;
}

namespace memory_detail {
namespace {

// KV cache per device with tensor- and pipeline-parallel degrees `t` and `p`.
template <class T>
T kv_cache(const Workload& w, const T& t, const T& p) {
  const Architecture& m = w.model;
  T context = named<T>("context", w.context);
  if (m.sliding_window) context = minimum(context, named<T>("window", *m.sliding_window));
  const T layers = named<T>("L", m.layers) / p;
  const T batch = named<T>("batch", w.batch);
  const T bytes = named<T>("bytes", bytes_per_kv_value(w.kv_format));
  if (m.mla) {
    // DeepSeek-V2 (§2.1.2): MLA caches the compressed latent and the decoupled RoPE key,
    // (d_c + d_h^R) values per token per layer, the same on every tensor-parallel rank.
    return layers *
           (named<T>("kv_lora_rank", m.mla->kv_lora_rank) + named<T>("qk_rope_head_dim", m.mla->qk_rope_head_dim)) *
           context * batch * bytes;
  }
  // KV heads split across tensor-parallel ranks; with fewer heads than ranks they repeat.
  const T kv_heads_per_device = maximum(T(1.0), named<T>("kv_heads", m.kv_heads) / t);
  T cache = 2.0 * layers * kv_heads_per_device * named<T>("head_dim", m.head_dim) * context * batch * bytes;
  // Encoder-decoder: each decoder layer also caches the cross-attention keys and values.
  if (m.encoder_layers > 0) cache = cache * noted(T(2.0), "cross-attention");
  return cache;
}

// The working set of one inference forward pass over the whole batch at full context
// (prefill without chunking): the widest layer's intermediates plus last-token logits.
template <class T>
T inference_activations(const Workload& w, const T& t) {
  const Architecture& m = w.model;
  const T batch = named<T>("batch", w.batch);
  const T tokens = named<T>("context", w.context) * batch;
  const T q = named<T>("q", static_cast<double>(m.heads) * m.head_dim);
  const double width = m.is_moe() ? m.moe.experts_per_token * static_cast<double>(m.moe.expert_intermediate)
                                  : static_cast<double>(m.intermediate);
  const T ffn = (m.mlp == MlpKind::gated ? 3.0 : 2.0) * named<T>("ffn", width);
  const T per_token = 2.0 * (2.0 * named<T>("h", m.hidden) + (q + 2.0 * named<T>("kv", m.kv_dim()) + ffn) / t);
  return tokens * per_token + 4.0 * batch * named<T>("V", m.vocab);
}

}  // namespace
}  // namespace memory_detail

Bytes kv_cache_bytes(const Workload& w, const Strategy& st) {
  return Bytes(memory_detail::kv_cache<double>(w, st.tensor_parallel, st.pipeline_parallel));
}

namespace memory_detail {

std::string layout_text(const Strategy& st, int device_count) {
  return "t=" + format_general(st.tensor_parallel) + ", p=" + format_general(st.pipeline_parallel) +
         ", dp=" + format_general(st.data_parallel(device_count)) + ", ZeRO-" + format_general(st.zero_stage) +
         (st.hybrid_sharded(device_count) ? ", shard group " + format_general(st.shard_group) : "");
}

template <class T>
void trees_memory(const Workload& w, int device_count, const Strategy& st, MemoryBreakdown& memory,
                  ExplainRows<T>& rows) {
  // Each worker holds its share of the rows: the values its process was given, their bin
  // indices (ELLPACK on a GPU), per-row arrays, and the histograms of a tree's deepest level
  // (docs/methodology.md#gbdt-memory). A GPU worker's input stays on its host.
  const int workers = std::max(device_count, 1);
  const GbdtMemory m = gbdt_memory(w, st.trees_on_gpu, workers);
  const double per_worker_rows = gbdt_rows(w) / workers;
  memory.gradients = rows.term(
      "gradients",
      named<T>("rows", per_worker_rows) * named<T>("bytes per gradient pair", k_gbdt_gradient_bytes_per_row),
      [&] { return "rows " + format_general(gbdt_rows(w)) + " over " + format_general(workers) + " workers"; });
  // External memory: the GPU keeps XGBoost's share of the cache and the pages in flight; the
  // host holds the rest, and never the whole float input (a DataIter feeds it in batches).
  const ExtMemCache cache = st.trees_external_memory()
                                ? extmem_cache(m.quantised, st.trees_extmem_gpu_bytes, st.trees_extmem_c2c)
                                : ExtMemCache{};
  const T held = st.trees_external_memory()
                     ? named<T>("ELLPACK bytes on the GPU", cache.on_device) + named<T>("pages in flight", cache.pages)
                 : st.trees_on_gpu ? named<T>("ELLPACK bytes", m.quantised)
                                   : named<T>("input bytes", m.input) + named<T>("bin index bytes", m.quantised);
  memory.activations = rows.term(
      "activations", held + named<T>("row arrays", m.row_arrays) + named<T>("histogram bytes", m.histograms), [&] {
        return "features " + format_general(w.features) + ", bins " + format_general(w.bins) + ", depth " +
               format_general(w.max_depth) + ", " +
               (st.trees_external_memory() ? "GPU (ELLPACK, external memory)"
                : st.trees_on_gpu          ? "GPU (ELLPACK)"
                                           : "CPU (hist)") +
               ", library " + std::string(to_string(w.library));
      });
  if (st.trees_external_memory()) {
    memory.host = rows.term("host",
                            named<T>("ELLPACK bytes on the host", cache.on_host) +
                                named<T>("input batch bytes", std::min(k_extmem_input_batch_bytes, m.input)),
                            [&] {
                              return "the cache XGBoost keeps on the host of a " +
                                     format_general(st.trees_extmem_gpu_bytes) + "-byte GPU over " +
                                     (st.trees_extmem_c2c ? "NVLink-C2C" : "PCIe");
                            });
  } else if (st.trees_on_gpu) {
    memory.host = rows.term("host", named<T>("input bytes", m.input),
                            [&] { return "the rows' float values, on the worker's host"; });
  }
}

template <class T>
void inference_memory(const Workload& w, int device_count, const Strategy& st, const Degrees<T>& split,
                      MemoryBreakdown& memory, ExplainRows<T>& rows) {
  const Architecture& m = w.model;
  const double n = w.parameters.total;
  const double bits = bits_per_weight(w.weight_format);
  if (w.diffusion) {
    // A diffusion model's denoiser at its width and its text encoders and VAE in 16 bits,
    // replicated on every device; the larger of the denoiser's live activations and the VAE
    // decoder's peak over the batch (diffusion.hpp); no KV cache.
    const T frozen = named<T>("text encoders and VAE", diffusion_inference_frozen_bytes(w).value);
    memory.weights = rows.term("weights", named<T>("N", n) * (bits / 8.0) + frozen, [&] {
      return "denoiser " + format_general(n) + ", bits " + format_general(bits) + ", " +
             w.diffusion->model.text_encoders + " and VAE in 16 bits";
    });
    memory.activations = rows.term(
        "activations", named<T>("denoiser or VAE decoder", diffusion_inference_activation_bytes(w).value), [&] {
          return "images " + format_general(w.micro_batch) + " × passes " +
                 format_general(w.diffusion->passes_per_step()) + " × live share " +
                 format_general(k_vision_inference_live_share) + ", or the decoder's " +
                 format_general(k_vae_decode_bytes_per_element) + " bytes per element of its largest map";
        });
    return;
  }
  if (w.speech) {
    // A speech model's weights at their width on every device, each sequence's keys and
    // values (the window's cross-attention ones and its own), the encoder's live layer over
    // the batch of windows (speech.hpp).
    const SpeechWorkload& s = *w.speech;
    memory.weights = rows.term("weights", named<T>("N", n) * (bits / 8.0), [&] {
      return "N " + format_general(n) + ", bits " + format_general(bits) + ", " + layout_text(st, device_count);
    });
    memory.kv_cache =
        rows.term("KV cache", named<T>("cross and self keys and values", speech_inference_cache_bytes(w).value), [&] {
          return "windows " + format_general(w.micro_batch) + " × beams " + format_general(s.beams) +
                 ", cross-attention over " + format_general(s.model.source_positions) + " positions, self-attention " +
                 format_general(s.model.target_positions) + " tokens, " + std::string(to_string(s.engine));
        });
    memory.activations =
        rows.term("activations", named<T>("encoder layer", speech_inference_activation_bytes(w).value), [&] {
          return "windows " + format_general(w.micro_batch) + " × positions " +
                 format_general(s.model.source_positions) + " × (5·d + f)";
        });
    return;
  }
  if (w.vision) {
    // A vision model's weights at their width, replicated on every device, and the live
    // activations of its batch (vision.hpp); no KV cache.
    memory.weights = rows.term("weights", named<T>("N", n) * (bits / 8.0), [&] {
      return "N " + format_general(n) + ", bits " + format_general(bits) + ", " + layout_text(st, device_count);
    });
    memory.activations =
        rows.term("activations", named<T>("live activations", vision_inference_activation_bytes(w).value), [&] {
          return "images " + format_general(w.micro_batch) + " × live share " +
                 format_general(k_vision_inference_live_share);
        });
    return;
  }
  // MXFP4 checkpoints (gpt-oss) quantise the routed experts only: attention, router,
  // embeddings and head stay 16-bit (its quantization_config's modules_to_not_convert).
  const double experts = w.weight_format == WeightFormat::mxfp4 ? routed_expert_parameters(m) : 0.0;
  const double quantized = experts > 0 ? experts : quantizes_linear_only(w.weight_format) ? w.parameters.linear : n;
  const T weights = (named<T>("quantised params", quantized) * named<T>("bits", bits) / 8.0 +
                     named<T>("other params", n - quantized) * 2.0) /
                    split.model;
  memory.weights = rows.term("weights", weights, [&] {
    return "quantised " + format_general(quantized) + ", bits " + format_general(bits) + ", other " +
           format_general(n - quantized) + ", " + layout_text(st, device_count);
  });
  memory.kv_cache = rows.term("kv_cache", kv_cache(w, split.tensor, split.pipeline), [&] {
    return "L " + format_general(m.layers) + ", kv_heads " + format_general(m.kv_heads) + ", head_dim " +
           format_general(m.head_dim) + ", context " + format_general(w.context) + ", batch " +
           format_general(w.batch) + ", bytes " + format_general(bytes_per_kv_value(w.kv_format)) +
           (m.sliding_window ? ", window " + format_general(*m.sliding_window) : "");
  });
  memory.activations = rows.term("activations", inference_activations(w, split.tensor), [&] {
    return "h " + format_general(m.hidden) + ", ffn " + format_general(m.intermediate) + ", V " +
           format_general(m.vocab);
  });
}

// Framework overhead plus the allocator's margin on what varies with the batch.
template <class T>
void add_overhead(const Workload& w, MemoryBreakdown& memory, ExplainRows<T>& rows) {
  const T margin = named<T>("allocator margin", w.allocator_margin) *
                   (named<T>("activations", memory.activations.value) + named<T>("kv_cache", memory.kv_cache.value));
  memory.overhead = rows.term("overhead", named<T>("framework overhead", w.overhead.value) + margin, [&] {
    return "overhead " + format_general(w.overhead.value) + " bytes, margin " + format_general(w.allocator_margin);
  });
}

template <class T>
MemoryBreakdown estimate(const Workload& w, int device_count, const Strategy& st, ExplainRows<T>& rows) {
  const Degrees<T> split = degrees<T>(st, device_count);
  MemoryBreakdown memory;
  if (w.task == Task::gbdt) {
    trees_memory(w, device_count, st, memory, rows);
  } else if (w.task == Task::inference) {
    inference_memory(w, device_count, st, split, memory, rows);
  } else if (w.is_adapter_tuning()) {
    adapter_memory(w, device_count, st, split, memory, rows);
  } else {
    full_training_memory(w, device_count, st, split, memory, rows);
  }
  if (w.is_training()) add_training_tail(w, st, memory, rows);
  add_overhead(w, memory, rows);
  return memory;
}

}  // namespace memory_detail

MemoryBreakdown estimate_memory(const Workload& w, int device_count, const Strategy& st, Explanation* explain) {
  using namespace memory_detail;
  // Explanations are built only when asked for: this runs for every candidate plan.
  if (explain == nullptr) {
    ExplainRows<double> rows;
    return estimate(w, device_count, st, rows);
  }
  ExplainRows<Formula> rows(*explain);
  return estimate(w, device_count, st, rows);
}

MemoryBreakdown estimate_memory(const Workload& w, int device_count, const Strategy& st, Bytes activations) {
  memory_detail::ExplainRows<double> rows;
  rows.activations = activations.value;
  return memory_detail::estimate(w, device_count, st, rows);
}

}  // namespace mlsize
