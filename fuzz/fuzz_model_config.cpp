// Fuzzes the Hugging Face config reader (language, vision, diffusers and Whisper configs); for
// every config it accepts, counts the parameters and estimates memory for training and
// inference, or a diffusion or speech model's MACs, activations and adapters, which must stay
// finite.
#include <mlsize/support/error.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/diffusion.hpp>
#include <mlsize/model/speech.hpp>
#include <mlsize/model/parameter_count.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mlsize::Workload workload;
  mlsize::ModelFromConfig read;
  try {
    read = mlsize::model_from_hf_config(text, "fuzz.json");
  } catch (const mlsize::Error&) {
    return 0;
  }
  if (const auto* diffusion = std::get_if<mlsize::DiffusionModel>(&read)) {
    const mlsize::DiffusionModel& m = *diffusion;
    for (const double value :
         {m.denoiser_params, mlsize::denoiser_forward_macs(m, m.resolution, m.resolution),
          mlsize::denoiser_activation_elements(m, m.resolution, m.resolution),
          mlsize::diffusion_lora_parameters(m, 16), mlsize::vae_decoder_macs(m, m.resolution, m.resolution)}) {
      if (!std::isfinite(value) || value < 0) std::abort();
    }
    return 0;
  }
  if (const auto* speech = std::get_if<mlsize::SpeechModel>(&read)) {
    const mlsize::SpeechModel& m = *speech;
    for (const double value :
         {mlsize::speech_parameters(m), mlsize::speech_encoder_macs(m), mlsize::speech_token_macs(m, 448),
          mlsize::speech_activation_elements(m, 105, false), mlsize::speech_lora_parameters(m, 32)}) {
      if (!std::isfinite(value) || value < 0) std::abort();
    }
    return 0;
  }
  if (std::holds_alternative<mlsize::VisionModel>(read)) return 0;
  workload.model = std::get<mlsize::Architecture>(std::move(read));
  workload.parameters = mlsize::count_parameters(workload.model);
  workload.tokens = 1e9;
  for (mlsize::Task task : {mlsize::Task::pretrain, mlsize::Task::qlora, mlsize::Task::inference}) {
    workload.task = task;
    const mlsize::MemoryBreakdown memory = mlsize::estimate_memory(workload, 8, mlsize::Strategy{});
    if (!std::isfinite(memory.total().value) || memory.total().value < 0) std::abort();
  }
  return 0;
}
