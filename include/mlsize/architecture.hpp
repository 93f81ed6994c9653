#pragma once
// The shape of a dense decoder-only transformer, as far as memory and compute need it.

namespace mlsize {

struct Architecture {
  int layers = 0;   // L
  int hidden = 0;   // h
  int heads = 0;    // a
  int vocab = 0;    // V
};

// The width and heads of the GPT-3 family model (Brown et al. 2020, Table 2.1) whose
// parameter count is nearest to `params` on a log scale, with its depth scaled by
// params / that model's params. Only activations depend on the shape; weights,
// gradients and optimizer states use `params` itself.
Architecture architecture_from_params(double params);

}  // namespace mlsize
