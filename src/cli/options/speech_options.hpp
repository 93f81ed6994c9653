#pragma once
// A speech model's job from the flags (docs/cli.md#speech): the hours of audio, and the
// engine and beam that transcribe them, or the clips that fine-tune it.

#include "cli/options/workload_options.hpp"

#include <mlsize/model/speech.hpp>
#include <mlsize/model/workload.hpp>

namespace mlsize::cli {

// The workload's model becomes `model` (its 30-second windows stand for the tokens), with the
// batch and optimizer Hugging Face's fine-tuning recipe starts from; refuses --task gbdt.
void set_speech_model(const SpeechModel& model, Workload& workload);

// --audio-hours, --engine, --beam and --clip-seconds; the tokens are the windows (× epochs).
void resolve_speech(const WorkloadOptions& options, Workload& workload);

// --audio-hours, --beam and --clip-seconds describe speech models only.
void check_speech_flags(const WorkloadOptions& options, const Workload& workload);

}  // namespace mlsize::cli
