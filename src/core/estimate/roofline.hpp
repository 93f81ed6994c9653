#pragma once
// The roofline the image and audio families time their parts with (docs/methodology.md#vision):
// a part's FLOPs at the vision models' share of the peak against the bytes its activations
// move at the memory bandwidth, the longer of the two.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/model/workload.hpp>

namespace mlsize {

// One part of the work per sample: its FLOPs and the bytes its activations move.
struct Part {
  double flops = 0;
  double traffic = 0;
};

struct Roofline {
  double peak = 0;       // FLOP/s at the compute type, at the vision models' compute share
  double bandwidth = 0;  // bytes/s; 0: not stated, the compute bound alone
  double seconds(const Part& part) const;
};

Roofline roofline_of(const Device& device, const Workload& workload);

}  // namespace mlsize
