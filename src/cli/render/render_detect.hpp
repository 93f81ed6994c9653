#pragma once
// `mlsize detect`: the machine's GPUs, CPU and RAM as the catalogue knows them, and what
// --here would plan on.

#include "cli/render/provenance.hpp"

#include <mlsize/machine/here.hpp>

#include <optional>
#include <string>

namespace mlsize::cli {

struct DetectResult {
  MachineMap machine;
  std::string origin;                // "this machine", "the machine recorded in DIR"
  std::optional<HereHardware> here;  // what --here plans on
  std::string here_problem;          // else why it has nothing to plan on, and the hint
  Provenance provenance;
};

// One line per GPU (and per MIG instance), then the CPU, the RAM, --here and the notes.
std::string render_detect_table(const DetectResult& result, std::size_t width);
// {"schema_version", "command": "detect", "provenance", "machine", "gpus", "cpu",
// "memory_bytes", "here", "notes"} (docs/schema/detect.schema.json).
std::string render_detect_json(const DetectResult& result);

}  // namespace mlsize::cli
