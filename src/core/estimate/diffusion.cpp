#include <mlsize/estimate/diffusion.hpp>

#include "core/estimate/roofline.hpp"

#include <mlsize/estimate/communication.hpp>
#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/vision.hpp>

#include <algorithm>

namespace mlsize {
namespace {

double element_bytes(const Workload& w) {
  if (w.is_training()) return w.precision == Precision::fp32 ? 4.0 : 2.0;
  return w.weight_format == WeightFormat::fp32 ? 4.0 : 2.0;
}

// The denoiser: a training step's forward and backward at one timestep (adapters compute no
// weight gradients: 4·MACs, as compute.hpp's training_flops counts them), or one forward pass.
Part denoiser_part(const Workload& w) {
  const DiffusionWorkload& d = *w.diffusion;
  const double macs = denoiser_forward_macs(d.model, d.height, d.width);
  const double bytes = denoiser_activation_elements(d.model, d.height, d.width) * element_bytes(w);
  if (!w.is_training()) return {2 * macs, bytes * k_vision_traffic_per_activation * k_vision_inference_traffic_share};
  return {(w.is_adapter_tuning() ? 4.0 : 6.0) * macs, bytes * k_vision_traffic_per_activation};
}

Part vae_part(const Workload& w, bool decoder) {
  const DiffusionWorkload& d = *w.diffusion;
  const double macs =
      decoder ? vae_decoder_macs(d.model, d.height, d.width) : vae_encoder_macs(d.model, d.height, d.width);
  return {2 * macs, vae_activation_elements(d.model, d.height, d.width, decoder) * element_bytes(w) *
                        k_vision_traffic_per_activation * k_vision_inference_traffic_share};
}

// The text encoders read their weights once per prompt: compute-bound, no traffic counted.
Part text_part(const Workload& w) {
  return {2 * text_encoder_macs(w.diffusion->model), 0};
}

// FLOPs per image of a training step or a generated image.
double flops_per_image(const Workload& w) {
  const DiffusionWorkload& d = *w.diffusion;
  if (w.is_training()) {
    double flops = denoiser_part(w).flops;
    if (!d.cached) flops += vae_part(w, false).flops + text_part(w).flops;
    return flops;
  }
  return d.steps * d.passes_per_step() * denoiser_part(w).flops + vae_part(w, true).flops +
         d.passes_per_step() * text_part(w).flops;
}

}  // namespace

DiffusionBatch diffusion_batch(const Device& device, const Workload& w) {
  const DiffusionWorkload& d = *w.diffusion;
  const Roofline r = roofline_of(device, w);
  DiffusionBatch batch;
  batch.batch = std::max(1, w.micro_batch);
  const double images = batch.batch;
  // Classifier-free guidance encodes the empty prompt too and runs both in one batch.
  batch.text = Seconds(images * d.passes_per_step() * r.seconds(text_part(w)));
  batch.denoise =
      Seconds(d.steps * (images * d.passes_per_step() * r.seconds(denoiser_part(w)) + k_diffusion_step_overhead_s));
  batch.decode = Seconds(images * r.seconds(vae_part(w, true)));
  if (d.model_offload) {
    // Every component comes back from the host for its turn: the denoiser at its width, the
    // text encoders and VAE in 16 bits, over the host link offload plans use.
    const double bytes =
        d.model.denoiser_params * bits_per_weight(w.weight_format) / 8 + diffusion_inference_frozen_bytes(w).value;
    batch.offload = Seconds(bytes / k_host_link_bytes_per_s);
  }
  const double stack = stack_efficiency(stack_of(device));
  if (stack > 0) {
    batch.text = Seconds(batch.text.value / stack);
    batch.denoise = Seconds(batch.denoise.value / stack);
    batch.decode = Seconds(batch.decode.value / stack);
  }
  return batch;
}

double diffusion_efficiency(const Device& device, const Workload& w) {
  const std::optional<DType> dtype = compute_dtype(device, w);
  const std::optional<double> peak = dtype ? device.peak(*dtype) : std::nullopt;
  if (!peak || *peak <= 0) return k_vision_compute_efficiency;
  double seconds = 0;
  if (w.is_training()) {
    const Roofline r = roofline_of(device, w);
    seconds = r.seconds(denoiser_part(w));
    if (!w.diffusion->cached) seconds += r.seconds(vae_part(w, false)) + r.seconds(text_part(w));
    seconds /= stack_efficiency(stack_of(device));
  } else {
    const DiffusionBatch batch = diffusion_batch(device, w);
    seconds = batch.latency().value / batch.batch;
  }
  return seconds > 0 ? flops_per_image(w) / (*peak * seconds) : k_vision_compute_efficiency;
}

Flops diffusion_run_flops(const Workload& w, Recompute recompute) {
  double per_image = flops_per_image(w);
  // Full recomputation runs the denoiser's forward again.
  if (w.is_training() && recompute == Recompute::full) {
    const DiffusionWorkload& d = *w.diffusion;
    per_image += 2 * denoiser_forward_macs(d.model, d.height, d.width);
  }
  return Flops(per_image * w.tokens);
}

Bytes diffusion_activation_bytes(const Workload& w, const Strategy& st) {
  const DiffusionWorkload& d = *w.diffusion;
  const double images = st.micro_batch > 0 ? st.micro_batch : w.micro_batch;
  double share = 1.0;
  if (st.recompute == Recompute::full) {
    // A UNet keeps its levels' inputs (a quarter, as a CNN's four stages: vision.cpp); a
    // transformer each block's input, one s·h of its 17 (20 with cross-attention).
    share = d.model.family == DenoiserFamily::unet                             ? 0.25
            : d.model.family == DenoiserFamily::dit && d.model.context_dim > 0 ? 1.0 / 20
                                                                               : 1.0 / 17;
  }
  return Bytes(images * denoiser_activation_elements(d.model, d.height, d.width) * element_bytes(w) * share);
}

Bytes diffusion_frozen_bytes(const Workload& w) {
  const DiffusionWorkload& d = *w.diffusion;
  if (d.cached) return Bytes(0);
  return Bytes((d.model.text_encoder_params + d.model.vae_params) * element_bytes(w));
}

Bytes diffusion_inference_frozen_bytes(const Workload& w) {
  const DiffusionModel& m = w.diffusion->model;
  // Offloaded, the text encoders are on the host at the peak.
  return Bytes(((w.diffusion->model_offload ? 0 : m.text_encoder_params) + m.vae_params) * 2.0);
}

Bytes diffusion_inference_activation_bytes(const Workload& w) {
  const DiffusionWorkload& d = *w.diffusion;
  const double images = std::max(1, w.micro_batch);
  const double denoiser = images * d.passes_per_step() * denoiser_activation_elements(d.model, d.height, d.width) *
                          element_bytes(w) * k_vision_inference_live_share;
  // Sliced, the decoder holds one image's maps at a time.
  const double decoded = d.vae_slicing ? 1.0 : images;
  const double decoder =
      decoded * vae_decoder_peak_elements(d.model, d.height, d.width) * k_vae_decode_bytes_per_element;
  return Bytes(std::max(denoiser, decoder));
}

}  // namespace mlsize
