#pragma once
// How a workload is split across devices: data, tensor, pipeline and expert parallelism,
// ZeRO sharding, activation recomputation and offloading.

#include <mlsize/model/workload.hpp>
#include <mlsize/support/names.hpp>

#include <array>

namespace mlsize {

// Where ZeRO-Offload / ZeRO-Infinity move model states (Ren et al. 2021; Rajbhandari et al. 2021).
enum class Offload { none, optimizer, optimizer_and_params };
constexpr auto enum_names(Offload) {
  using enum Offload;
  return std::to_array<EnumName<Offload>>(
      {{none, "none"}, {optimizer, "optimizer"}, {optimizer_and_params, "optimizer+params"}});
}

// Whether DeepSpeed can step an optimizer's offloaded states on the host: its CPU kernels are
// DeepSpeedCPUAdam (Adam and AdamW), DeepSpeedCPULion and DeepSpeedCPUAdagrad
// (deepspeed/ops/adam, lion, adagrad). bitsandbytes' 8-bit Adam, Adafactor and SGD step on
// the device only.
constexpr bool steps_on_host(Optimizer optimizer) {
  return optimizer == Optimizer::adam || optimizer == Optimizer::adamw || optimizer == Optimizer::lion;
}

struct Strategy {
  int zero_stage = 0;  // 0 = plain data parallel (DDP); 1-3 = ZeRO stages (3 ~ FSDP full shard)
  Recompute recompute = Recompute::none;
  int tensor_parallel = 1;         // t (Megatron-LM)
  int pipeline_parallel = 1;       // p
  bool sequence_parallel = false;  // Korthikanti et al. 2022: shards the norm/dropout activations by t
  int expert_parallel = 1;         // MoE experts split across this many data-parallel ranks
  Offload offload = Offload::none;
  int micro_batch = 0;  // sequences per device per forward pass; 0: the workload's (--micro-batch)
  // ZeRO-3 only: the data-parallel ranks that shard the model states among them, the groups
  // replicating each other (hybrid sharding: PyTorch FSDP's HYBRID_SHARD, a 2-D device mesh
  // for fully_shard; DeepSpeed ZeRO++'s hpZ). 0: all of them (FULL_SHARD).
  int shard_group = 0;
  // --task gbdt: the trees are grown on the plan's GPUs (XGBoost device="cuda", its data in
  // ELLPACK pages) rather than on the CPU (hist); docs/methodology.md#gbdt-memory.
  bool trees_on_gpu = false;
  // --task gbdt: the machines that share the rows; past one, a Dask or Spark cluster
  // (docs/methodology.md#distributed-gbdt).
  int tree_machines = 1;
  // --task gbdt on one GPU: XGBoost's external memory (ExtMemQuantileDMatrix), its ELLPACK
  // cache split between the GPU and the host as XGBoost splits it for a GPU of this many
  // bytes (0: in-core), over a full NVLink-C2C link or over PCIe
  // (docs/methodology.md#gbdt-external-memory).
  double trees_extmem_gpu_bytes = 0;
  bool trees_extmem_c2c = false;
  bool trees_external_memory() const { return trees_extmem_gpu_bytes > 0; }

  int model_parallel() const { return tensor_parallel * pipeline_parallel; }
  int data_parallel(int device_count) const { return device_count / model_parallel(); }
  // Whether the states are sharded within groups and replicated across them (HSDP).
  bool hybrid_sharded(int device_count) const {
    return zero_stage >= 3 && shard_group > 0 && shard_group < data_parallel(device_count);
  }
  // The ranks ZeRO shards the model states over: the shard group under HSDP, else all dp.
  int shard_degree(int device_count) const {
    return hybrid_sharded(device_count) ? shard_group : data_parallel(device_count);
  }
  // HSDP's replicas of the shard group (1 without HSDP).
  int shard_replicas(int device_count) const { return data_parallel(device_count) / shard_degree(device_count); }
};

}  // namespace mlsize
