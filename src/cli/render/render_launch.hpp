#pragma once
// Launch configs (--emit): a plan as DeepSpeed's config JSON, a torchrun command, an
// Accelerate config, a SkyPilot task or a vLLM command (docs/launch.md).

#include <mlsize/launch/launch.hpp>

#include <string>

namespace mlsize::cli {

struct LaunchText {
  std::string text;   // the file or script, for stdout
  std::string notes;  // what the file cannot say (e.g. that recomputation is switched on in the model), for stderr
};

// `spec` as `kind` writes it (unsupported(kind, spec) must be empty); `title` names the plan
// in the comments of the formats that have them and in the notes.
LaunchText render_launch(LaunchKind kind, const LaunchSpec& spec, const std::string& title);

}  // namespace mlsize::cli
