#pragma once
// A name a machine reports ("NVIDIA A100-SXM4-40GB", "Intel(R) Xeon(R) Platinum 8480+") as a
// device of the catalogue. docs/cli.md#detect describes the rules.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/support/units.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlsize {

struct DeviceMatch {
  const Device* device = nullptr;  // the catalogue's device; null when none matches
  // Empty for a plain match; else what differs ("reports 8.0 GiB; the catalogue's rtx-3060 has
  // 12.0 GiB"), or why nothing matched ("not in the catalogue").
  std::string note;
  // With no match: ids of the catalogue's devices of the same model that differ in variant
  // or form factor (did you mean).
  std::vector<std::string> near;
};

// What a device is asked for: an accelerator's name (matched among GPUs, TPUs and NPUs), or a
// CPU's (matched among CPUs).
enum class DeviceRole { accelerator, cpu };

// The device of `catalog` that `reported` names. A device whose name, id or alias is
// `reported` (any case) matches first, so that an overlay can name a device as the machine
// does; otherwise the model numbers in the names must agree (h100, 4090, mi300x, 8480+), and
// so must the variant words (Ti, SUPER, Ada, XTX, Max, Pro, Ultra, Laptop) and the form
// factor (PCIe and NVL apart from SXM/OAM/unnamed). Among several, the nearest in
// memory (`memory`, else a size in the name such as 40GB) is taken.
DeviceMatch match_device(const Catalog& catalog, std::string_view reported, std::optional<Bytes> memory,
                         DeviceRole role);

}  // namespace mlsize
