#pragma once
// The model presets as compact bytes, as catalog_snapshot.hpp does for the catalogue: the
// build reads data/models/*.json once with every check and compiles the bytes in.

#include <mlsize/model/architecture.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mlsize {

// Every shape of `presets`, in order.
std::string write_model_snapshot(const std::vector<Architecture>& presets);

// The shapes write_model_snapshot wrote; throws Error (input) when `bytes` is not one.
std::vector<Architecture> read_model_snapshot(std::string_view bytes);

}  // namespace mlsize
