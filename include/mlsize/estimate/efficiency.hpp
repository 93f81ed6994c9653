#pragma once
// How much of its peak a device's software stack turns into training throughput, and
// what a run costs besides its compute. Figures and sources: docs/methodology.md#efficiency.

#include <mlsize/catalog/catalog.hpp>
#include <mlsize/model/workload.hpp>
#include <mlsize/support/names.hpp>

#include <array>

namespace mlsize {

// The software a device trains with: what its MFU depends on beyond the chip.
enum class Stack { cuda, cuda_consumer, rocm, xla, neuron, gaudi, mps, cpu };
constexpr auto enum_names(Stack) {
  using enum Stack;
  return std::to_array<EnumName<Stack>>({{cuda, "cuda"},
                                         {cuda_consumer, "cuda-consumer"},
                                         {rocm, "rocm"},
                                         {xla, "xla"},
                                         {neuron, "neuron"},
                                         {gaudi, "gaudi"},
                                         {mps, "mps"},
                                         {cpu, "cpu"}});
}

// CUDA on NVIDIA's datacenter parts; GeForce cards are cuda_consumer; AMD GPUs ROCm; TPUs
// XLA; AWS Trainium and Inferentia the Neuron SDK; Intel Gaudi SynapseAI; Apple GPUs MPS.
Stack stack_of(const Device& device);

// The MFU a stack reaches, as a multiple of the MFU of datacenter NVIDIA GPUs (the
// workload's --mfu default, measured on A100s): 1 where no published figure says otherwise.
double stack_efficiency(Stack stack);

// QLoRA dequantises each 4-bit weight to 16 bits in every forward and backward pass: its
// steps take this much longer than LoRA's on the same FLOPs. Raschka, "Finetuning LLMs with
// LoRA and QLoRA: Insights from Hundreds of Experiments" (Lightning AI, 2023): Llama 2 7B,
// 6,685.75 s with LoRA, 10,059.53 s with QLoRA (nf4).
inline constexpr double k_qlora_slowdown = 1.5;

// The MFU `workload` reaches on `device`: --mfu as given when the user pinned it, else the
// datacenter default times the device's stack efficiency; QLoRA divided by its slowdown.
double effective_mfu(const Device& device, const Workload& workload);

}  // namespace mlsize
