#include "core/estimate/roofline.hpp"

#include <mlsize/estimate/compute.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/vision.hpp>

#include <algorithm>

namespace mlsize {

double Roofline::seconds(const Part& part) const {
  const double compute = peak > 0 ? part.flops / peak : 0;
  return bandwidth > 0 ? std::max(compute, part.traffic / bandwidth) : compute;
}

Roofline roofline_of(const Device& device, const Workload& w) {
  const std::optional<DType> dtype = compute_dtype(device, w);
  const std::optional<double> peak = dtype ? device.peak(*dtype) : std::nullopt;
  Roofline r;
  r.peak = peak ? *peak * k_vision_compute_efficiency * cpu_gemm_efficiency(device, *dtype) : 0;
  r.bandwidth = device.memory_bandwidth_bytes_per_s.value_or(0);
  return r;
}

}  // namespace mlsize
