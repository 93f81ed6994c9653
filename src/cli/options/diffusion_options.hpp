#pragma once
// A diffusion model's job from the flags (docs/cli.md#diffusion): its images at a resolution,
// and for generation the denoising steps, the guidance and the rate of images to serve.

#include "cli/options/workload_options.hpp"

#include <mlsize/model/diffusion.hpp>
#include <mlsize/model/workload.hpp>

namespace mlsize::cli {

// The workload's model becomes `model` (its images stand for the tokens), with the batch and
// optimizer diffusers' training scripts start from; refuses tasks it is not sized for.
void set_diffusion_model(const DiffusionModel& model, Workload& workload);

// --images, --resolution, --steps, --guidance, --cache-latents, and for generation --rate
// with --replica-utilisation and --redundancy; the tokens are the images (× epochs).
void resolve_diffusion(const WorkloadOptions& options, Workload& workload);

// --steps, --guidance and --cache-latents describe diffusion models only.
void check_diffusion_flags(const WorkloadOptions& options, const Workload& workload);

}  // namespace mlsize::cli
