#include <mlsize/estimate/framework.hpp>

#include <mlsize/estimate/efficiency.hpp>

namespace mlsize {

bool framework_runs_on(Framework framework, const Device& device) {
  const Stack stack = stack_of(device);
  const bool cuda_or_rocm = stack == Stack::cuda || stack == Stack::cuda_consumer || stack == Stack::rocm;
  switch (framework) {
    // Megatron-LM: CUDA, and ROCm through AMD's ROCm/Megatron-LM.
    case Framework::megatron: return cuda_or_rocm;
    // transformers' Trainer: CUDA, ROCm, Intel Gaudi (optimum-habana), Apple's MPS and CPUs.
    // TPUs and Trainium train HF models through torch_xla and optimum-neuron, other stacks
    // with other layouts.
    case Framework::hf: return cuda_or_rocm || stack == Stack::gaudi || stack == Stack::mps || stack == Stack::cpu;
    // DeepSpeed's accelerators: CUDA, ROCm, HPU (Gaudi) and CPU (deepspeed/accelerator/).
    case Framework::deepspeed: return cuda_or_rocm || stack == Stack::gaudi || stack == Stack::cpu;
    // JAX's backends: TPU, CUDA, ROCm and CPU (jax.readthedocs.io, installation).
    case Framework::jax: return cuda_or_rocm || stack == Stack::xla || stack == Stack::cpu;
    case Framework::neuron: return stack == Stack::neuron;
  }
  return true;
}

std::string framework_devices_text(Framework framework) {
  switch (framework) {
    case Framework::megatron: return "NVIDIA and AMD GPUs (CUDA, ROCm)";
    case Framework::hf: return "NVIDIA and AMD GPUs, Gaudi, Apple GPUs and CPUs";
    case Framework::deepspeed: return "NVIDIA and AMD GPUs, Gaudi and CPUs";
    case Framework::jax: return "TPUs, NVIDIA and AMD GPUs and CPUs";
    case Framework::neuron: return "Trainium and Inferentia (the AWS Neuron SDK)";
  }
  return "";
}

bool framework_runs(Framework framework, const Strategy& strategy) {
  const bool tensor = strategy.tensor_parallel > 1;
  const bool pipeline = strategy.pipeline_parallel > 1;
  const bool offloads = strategy.offload != Offload::none;
  switch (framework) {
    // The HF Trainer's multi-GPU paths: DDP, DeepSpeed ZeRO, FSDP
    // (huggingface.co/docs/transformers/perf_train_gpu_many).
    case Framework::hf: return !tensor && !pipeline;
    // Pipelines are a PipelineModule with ZeRO stage 0 or 1 (deepspeed.ai/tutorials/pipeline);
    // AutoTP trains with ZeRO 0-2 (deepspeed.ai/tutorials/autotp-training).
    case Framework::deepspeed:
      if (tensor && pipeline) return false;
      if (pipeline) return strategy.zero_stage <= 1 && !offloads;
      return !tensor || strategy.zero_stage <= 2;
    // Megatron-LM's model parallelism shards the optimizer states only
    // (--use-distributed-optimizer) and offloads none of the model states.
    case Framework::megatron: return (!tensor && !pipeline) || (strategy.zero_stage <= 1 && !offloads);
    // MaxText's mesh axes (configs/base.yml: data, fsdp, tensor, stage, ...): weights
    // replicated or fully sharded, nothing offloaded to the host.
    case Framework::jax: return (strategy.zero_stage == 0 || strategy.zero_stage == 3) && !offloads;
    // NeuronX Distributed: "Tensor Parallelism, Pipeline Parallelism, Sequence Parallelism,
    // ZeRO-1" (AWS Neuron docs, NxD Training features).
    case Framework::neuron: return strategy.zero_stage <= 1 && !offloads;
  }
  return true;
}

}  // namespace mlsize
