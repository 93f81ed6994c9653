#pragma once
// Which kernels a device runs (docs/methodology.md#kernels): NVIDIA GPU generations by their
// compute capability, and the quantised-weight kernels a serving engine has for each. A plan
// whose weights have no kernel on its device is rejected with the requirement; one that runs
// on a slower fallback kernel is timed on it (engine.hpp, weight_kernel_efficiency).

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/model/workload.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mlsize {

// "8.0" for 80: NVIDIA's spelling of a compute capability.
std::string compute_capability_text(int capability);

// The architecture of a compute capability: Kepler, Pascal, Volta, Turing, Ampere, Ada,
// Hopper or Blackwell.
std::string_view nvidia_generation(int capability);

// A device's compute capability: the catalogue's, or for an NVIDIA device an overlay gave
// none, the least its stated peaks imply (a bf16 peak: 8.0, Ampere; an fp8 peak: 8.9, Ada);
// none for other vendors or when nothing implies one.
std::optional<int> compute_capability(const Device& device);

// Whether NVIDIA's Marlin kernels (4-bit and 8-bit weights at the weights' bandwidth) run:
// compute capability 8.0 or later (vLLM's supported-hardware table, "Marlin").
bool runs_marlin(const Device& device);

// Why `engine` cannot load weights of `format` on `device`, naming the kernel's requirement
// and its source, or none when it has a kernel for them (perhaps a slower one).
std::optional<std::string> missing_weight_kernel(Engine engine, WeightFormat format, const Device& device);

}  // namespace mlsize
