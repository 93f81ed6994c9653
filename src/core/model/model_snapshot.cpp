#include <mlsize/model/model_snapshot.hpp>

#include "core/support/snapshot_bytes.hpp"

namespace mlsize {
namespace {

// Bumped whenever the layout below changes.
constexpr std::uint32_t k_model_snapshot_version = 5;

void write_ints(snapshot::Writer& w, std::initializer_list<int> values) {
  for (int value : values) w.i32(value);
}

}  // namespace

std::string write_model_snapshot(const std::vector<Architecture>& presets) {
  snapshot::Writer w;
  w.u32(k_model_snapshot_version);
  w.u32(static_cast<std::uint32_t>(presets.size()));
  for (const Architecture& a : presets) {
    w.text(a.name);
    w.text(a.family);
    w.text(a.source);
    w.text(a.checkpoint_format);
    write_ints(w, {a.layers,
                   a.encoder_layers,
                   a.hidden,
                   a.heads,
                   a.kv_heads,
                   a.head_dim,
                   a.intermediate,
                   a.vocab,
                   static_cast<int>(a.mlp),
                   a.tied_embeddings,
                   a.attention_bias,
                   a.attention_output_bias,
                   a.mlp_bias,
                   a.learned_positions,
                   a.max_positions,
                   a.token_types,
                   a.norms_per_layer,
                   a.norm_bias,
                   a.final_norm,
                   a.embedding_norm,
                   a.pooler,
                   a.relative_attention_buckets,
                   a.embedding_width,
                   a.lm_head_bias,
                   a.qk_norm_width,
                   a.attention_sinks,
                   a.router_bias,
                   a.router_correction_bias,
                   a.fused_experts,
                   a.hidden_dropout,
                   a.attention_dropout,
                   a.fused_qkv,
                   a.fused_gate_up,
                   a.composite_activation});
    w.optional(a.sliding_window, [&](int window) { w.i32(window); });
    const MoeShape& m = a.moe;
    write_ints(w, {m.experts, m.experts_per_token, m.shared_experts, m.expert_intermediate, m.shared_intermediate,
                   m.shared_expert_gate, m.first_dense_layers, m.layer_frequency, m.layer_offset});
    w.optional(a.mla, [&](const MlaShape& mla) {
      write_ints(w, {mla.kv_lora_rank, mla.q_lora_rank, mla.qk_nope_head_dim, mla.qk_rope_head_dim, mla.v_head_dim});
    });
  }
  return w.take();
}

std::vector<Architecture> read_model_snapshot(std::string_view bytes) {
  snapshot::Reader r(bytes);
  if (r.u32() != k_model_snapshot_version) {
    throw Error(ErrorKind::input, "the compiled-in model presets have another layout", "rebuild mlsize");
  }
  std::vector<Architecture> presets(r.u32());
  const auto flag = [&] { return r.i32() != 0; };
  for (Architecture& a : presets) {
    a.name = r.text();
    a.family = r.text();
    a.source = r.text();
    a.checkpoint_format = r.text();
    a.layers = r.i32();
    a.encoder_layers = r.i32();
    a.hidden = r.i32();
    a.heads = r.i32();
    a.kv_heads = r.i32();
    a.head_dim = r.i32();
    a.intermediate = r.i32();
    a.vocab = r.i32();
    a.mlp = static_cast<MlpKind>(r.i32());
    a.tied_embeddings = flag();
    a.attention_bias = flag();
    a.attention_output_bias = flag();
    a.mlp_bias = flag();
    a.learned_positions = r.i32();
    a.max_positions = r.i32();
    a.token_types = r.i32();
    a.norms_per_layer = r.i32();
    a.norm_bias = flag();
    a.final_norm = flag();
    a.embedding_norm = flag();
    a.pooler = flag();
    a.relative_attention_buckets = r.i32();
    a.embedding_width = r.i32();
    a.lm_head_bias = flag();
    a.qk_norm_width = r.i32();
    a.attention_sinks = flag();
    a.router_bias = flag();
    a.router_correction_bias = flag();
    a.fused_experts = flag();
    a.hidden_dropout = flag();
    a.attention_dropout = flag();
    a.fused_qkv = flag();
    a.fused_gate_up = flag();
    a.composite_activation = flag();
    a.sliding_window = r.optional<int>([&] { return r.i32(); });
    MoeShape& m = a.moe;
    m.experts = r.i32();
    m.experts_per_token = r.i32();
    m.shared_experts = r.i32();
    m.expert_intermediate = r.i32();
    m.shared_intermediate = r.i32();
    m.shared_expert_gate = flag();
    m.first_dense_layers = r.i32();
    m.layer_frequency = r.i32();
    m.layer_offset = r.i32();
    a.mla = r.optional<MlaShape>([&] {
      MlaShape mla;
      mla.kv_lora_rank = r.i32();
      mla.q_lora_rank = r.i32();
      mla.qk_nope_head_dim = r.i32();
      mla.qk_rope_head_dim = r.i32();
      mla.v_head_dim = r.i32();
      return mla;
    });
  }
  if (!r.done()) throw Error(ErrorKind::input, "the compiled-in model presets have trailing bytes", "rebuild mlsize");
  return presets;
}

}  // namespace mlsize
