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

// NVIDIA's Volta and Turing tensor cores (V100, T4, Titan V, RTX 20): Megatron-LM (Shoeybi
// et al. 2019) sustained 39 TFLOP/s on one V100, 30% of its 125 TFLOP/s peak, and 15.1
// PFLOP/s on 512 (also 30%): 0.75 of the 0.40 measured on A100s. (GPT-3's run reached
// 21.3%, PaLM Table 3.) Llama 3 on 16k H100s reached 38-43%, as A100s: no change for Hopper.
inline constexpr double k_volta_turing_efficiency = 0.75;

// The MFU a device's generation reaches, as a multiple of the A100-measured default
// (docs/methodology.md#mfu): k_volta_turing_efficiency for Volta and Turing parts (compute
// capability 7.x), else 1.
double generation_efficiency(const Device& device);

// Small models' GEMMs are narrow and their kernels short, so a training step reaches less of
// the peak: MosaicML's llm-foundry benchmarks (scripts/train/benchmarking/README.md, 8 ×
// A100-80GB, bf16, sequence 2048) measure MFU 44.8 % at 125M, 51.6 % at 350M, 56.9 % at 760M,
// 59.9 % at 1B (1.3B) and 64.2 % at 7B: 0.70, 0.80, 0.89 and 0.93 of the 7B's. A line in log10 of
// the parameters through 7B (6.7B) fits them within 6 %: 1 − 0.155 per decade below, and no less
// than k_size_efficiency_floor (0.5, below the measured range).
inline constexpr double k_size_efficiency_per_decade = 0.155;
inline constexpr double k_size_efficiency_reference = 6.7e9;  // MPT-7B's 6.7B
inline constexpr double k_size_efficiency_floor = 0.5;
double size_efficiency(double parameters);

// A mixture of experts trains at less of the peak than a dense model of its active size:
// small expert GEMMs, token dispatch and permutation, all-to-all. Fitted to NVIDIA's
// published Model TFLOP/s per GPU (docs/methodology.md#mfu, "Mixtures of experts"; the
// fitting and held-out rows are in tests/unit/test_efficiency.cpp), each as a share of a
// dense model's on the same page, release and system, divided by size_efficiency of the
// active parameters: fine-grained experts (an expert's FFN no wider than the hidden size:
// Qwen3-MoE, DeepSeek-V3, gpt-oss, Nemotron 3 Nano) 0.72 in bf16 and 0.37 in fp8 (FP8
// speeds the GEMMs, not the dispatch); coarse experts (Mixtral, Grok-1) 0.90.
inline constexpr double k_fine_grained_expert_width = 1.0;  // expert FFN ÷ hidden, at most
inline constexpr double k_fine_grained_moe_efficiency = 0.72;
inline constexpr double k_fine_grained_moe_efficiency_fp8 = 0.37;
inline constexpr double k_coarse_moe_efficiency = 0.90;
// An expert no wider than the hidden size (k_fine_grained_expert_width): Qwen3-MoE, DeepSeek-V3.
bool fine_grained_experts(const Architecture& model);
double moe_efficiency(const Architecture& model, DType compute_dtype);

// LoRA's steps take 4·N·D FLOPs (no weight gradients for the frozen base) but the LoRA
// paper measures them only 25% faster than full fine-tuning's 6·N·D (Hu et al. 2021, §4.2:
// "a 25% speedup during training on GPT-3 175B"; 43.1 vs 32.5 tokens/s per V100). A time
// of 6·N·D / 1.25 at the dense MFU is 4·N·D at 4 × 1.25 / 6 = 0.83 of it.
inline constexpr double k_lora_efficiency = 4.0 * 1.25 / 6.0;

// QLoRA dequantises each 4-bit weight to 16 bits in every forward and backward pass: its
// steps take this much longer than LoRA's on the same FLOPs. Raschka, "Finetuning LLMs with
// LoRA and QLoRA: Insights from Hundreds of Experiments" (Lightning AI, 2023): Llama 2 7B,
// 6,685.75 s with LoRA, 10,059.53 s with QLoRA (nf4).
inline constexpr double k_qlora_slowdown = 1.5;

// CPUs: the fraction of its peak a CPU's matrix multiplications reach, relative to the datacenter
// GPUs' that the MFU defaults assume (docs/methodology.md#efficiency). AMX (Sapphire Rapids bf16,
// the only CPU bf16 peaks in the catalogue): oneDNN's benchdnn bf16 matmul 4096x5120x15360 on 188
// threads of a Sapphire Rapids host ran at 42.9 TFLOP/s (uxlfoundation/oneDNN issue #1992,
// 2024-07-11), at most 23% of 94 cores x 1.9 GHz x 1024; JAX's AMX bf16 matmul (n = 3000) on a
// 22-core GCP c3 reached 3.8 TFLOP/s, 6% of 22 x 2.7 GHz x 1024 (openxla/xla issue #10556). Against
// an H100's 720 of 989 TFLOP/s in BF16 GEMMs (SemiAnalysis 2024-12-22) that is 0.23 / 0.73 = 0.3.
// AVX-512 and AVX2 FP32 GEMMs run near their FMA peak (oneDNN issue #1115: 73-96% of a Xeon 8180
// core's 160 GFLOP/s at the nominal clock): no discount.
inline constexpr double k_cpu_amx_efficiency = 0.3;

// k_cpu_amx_efficiency for a CPU computing in bf16 or int8 (AMX), else 1 (FP32 vector units, and
// every accelerator).
double cpu_gemm_efficiency(const Device& device, DType compute_dtype);

// The MFU `workload` reaches on `device`: --mfu as given when the user pinned it, else the
// datacenter default times the device's stack and generation efficiencies (and a CPU's
// cpu_gemm_efficiency for the workload's compute type); LoRA and QLoRA
// times k_lora_efficiency, QLoRA divided by its slowdown too.
double effective_mfu(const Device& device, const Workload& workload);

}  // namespace mlsize
