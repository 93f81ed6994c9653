// The plans a search tries on one offering (docs/methodology.md#candidate-plans): training
// layouts (tensor × pipeline × ZeRO × recomputation × micro-batch, HSDP on several nodes),
// serving replicas by tensor degree, one plan per machine for gradient-boosted trees.

#include <mlsize/estimate/cost.hpp>
#include <mlsize/estimate/efficiency.hpp>
#include <mlsize/estimate/framework.hpp>
#include <mlsize/estimate/gbdt.hpp>
#include <mlsize/estimate/planner.hpp>
#include <mlsize/estimate/speech.hpp>

#include <algorithm>
#include <vector>

namespace mlsize {

namespace {

constexpr int k_max_serving_tensor_parallel = 8;
// The largest micro-batch the search tries, as a multiple of the workload's.
constexpr int k_largest_micro_batch_factor = 8;

// Whether `tensor` ranks can split the model: Megatron-LM needs the query heads and the
// key/value groups to divide evenly, and a device link to carry the per-layer collectives
// (the offering's where it states one: interconnect_of).
// Serving engines also split fewer key/value heads than ranks by repeating them (vLLM
// replicates each KV head over tensor / kv_heads ranks; the memory counts the repeats).
bool splits_tensors(const Architecture& model, const std::optional<Interconnect>& link, int tensor,
                    bool repeats_kv_heads = false) {
  if (tensor == 1) return true;
  if (!link) return false;
  const int kv_heads = model.kv_heads > 0 ? model.kv_heads : model.heads;
  const bool kv_split = kv_heads % tensor == 0 || (repeats_kv_heads && tensor % kv_heads == 0);
  return model.heads % tensor == 0 && kv_split;
}

// Where a training plan's devices go: units of an offering, split into tensor and
// pipeline ranks, the rest data parallel.
struct Layout {
  const Offering* offering;
  const Device* device;
  int units;
  int devices;
  int tensor;
  int pipeline;
};

// Whether a layout may offload (ZeRO-Offload, ZeRO-Infinity; docs/methodology.md#offload-in-the-search):
// DeepSpeed moves the states of a ZeRO stage to host RAM through its CPU Adam, for NVIDIA
// and AMD GPUs with plain data parallelism (the launchers mlsize emits run it so: DeepSpeed
// and accelerate's DeepSpeed plugin), for the optimizers it steps on the host (steps_on_host).
// The host's RAM and vCPUs must be stated for it to be checked and its optimizer steps timed,
// and adapters train too few weights for their states to matter.
bool offloads(const Workload& workload, const Layout& layout) {
  return workload.is_training() && !workload.is_adapter_tuning() && steps_on_host(workload.optimizer) &&
         layout.device->kind == DeviceKind::gpu && layout.offering->host_memory.has_value() &&
         layout.offering->vcpus.has_value() && layout.tensor == 1 && layout.pipeline == 1;
}

// The strategies of one layout: ZeRO 0-3 over the data-parallel ranks, only as far as a
// launcher mlsize emits runs it (launch.hpp's unsupported(); docs/launch.md): 0-1 under
// pipelining (DeepSpeed's pipeline engine and Megatron-LM's distributed optimizer shard no
// further), 0-2 with tensor parallelism (DeepSpeed's AutoTP trains with stages 0-2, and
// Megatron-LM and accelerate run no ZeRO-3 with it either), each without recomputation, with selective recomputation
// where attention is standard (flash attention stores no scores to drop) and with full recomputation. ZeRO-2 and -3
// communicate every micro-step, so for them larger micro-batches (2, 4, 8 × the workload's, fewer micro-steps to the
// same global batch, never past it) are tried too: they hide more of it for more activation memory. Pipelines want many
// micro-batches.
// Then, where the layout offloads (offloads()), ZeRO-Offload (ZeRO-2, the optimizer states on
// the host) and ZeRO-Infinity (ZeRO-3 with the parameters too; over several ranks also ZeRO-3
// with the optimizer states only), with micro-batches up to 128 × the workload's.
void add_layout_plans(const Workload& workload, const Layout& layout, std::vector<Plan>& plans) {
  const int data = layout.devices / (layout.tensor * layout.pipeline);
  if (workload.samples_are_tokens()) {
    // A vision, diffusion or speech model: DDP (or ZeRO/FSDP across replicas for the largest ViTs), each at the
    // per-GPU batch and at 1/2, 1/4 and 1/8 of it, without and with activation
    // checkpointing: a practitioner lowers the batch before checkpointing (which costs a
    // forward pass), and the estimate keeps the faster of what fits.
    const int smallest = workload.micro_batch_pinned ? workload.micro_batch : std::max(1, workload.micro_batch / 8);
    for (int stage = 0; stage <= (data == 1 ? 0 : 3); ++stage) {
      for (int micro = workload.micro_batch; micro >= smallest; micro /= 2) {
        for (Recompute recompute : {Recompute::none, Recompute::full}) {
          Strategy strategy;
          strategy.zero_stage = stage;
          strategy.recompute = recompute;
          if (micro != workload.micro_batch) strategy.micro_batch = micro;
          plans.push_back(Plan{layout.offering, layout.device, layout.units, layout.devices, strategy});
        }
        if (micro == 1) break;
      }
    }
    return;
  }
  // Trainium: what NeuronX Distributed trains with, tensor, pipeline and sequence parallelism
  // with ZeRO-1 (its optimizer sharding), no further stage and no offload (issue 48; AWS
  // Neuron docs, NxD Training's features: "Tensor Parallelism, Pipeline Parallelism,
  // Sequence Parallelism, ZeRO-1").
  const bool neuron = stack_of(*layout.device) == Stack::neuron;
  const int highest_stage = data == 1 ? 0 : layout.pipeline > 1 || neuron ? 1 : layout.tensor > 1 ? 2 : 3;
  auto add_stage = [&](int stage, int shard_group, Offload offload) {
    const bool grows = (stage >= 2 || offload != Offload::none) && layout.pipeline == 1 && !workload.micro_batch_pinned;
    const int largest = offload != Offload::none ? k_largest_offload_micro_batch_factor : k_largest_micro_batch_factor;
    for (int factor = 1; factor <= (grows ? largest : 1); factor *= 2) {
      // Never past the global batch: a larger micro-batch would change the recipe (the
      // batch size a run converges with), not just the hardware plan.
      const double tokens = static_cast<double>(data) * workload.micro_batch * factor * workload.sequence_length;
      if (factor > 1 && tokens > global_batch_tokens(workload, 0)) break;
      for (Recompute recompute : {Recompute::none, Recompute::selective, Recompute::full}) {
        if (recompute == Recompute::selective && workload.attention != Attention::standard) continue;
        Strategy strategy;
        strategy.zero_stage = stage;
        strategy.recompute = recompute;
        strategy.tensor_parallel = layout.tensor;
        strategy.pipeline_parallel = layout.pipeline;
        strategy.sequence_parallel = layout.tensor > 1;
        strategy.shard_group = shard_group;
        strategy.offload = offload;
        if (factor > 1) strategy.micro_batch = workload.micro_batch * factor;
        // --framework: only the layouts that stack trains with (framework.hpp).
        if (workload.framework_named && !framework_runs(workload.framework, strategy)) continue;
        plans.push_back(Plan{layout.offering, layout.device, layout.units, layout.devices, strategy});
      }
    }
  };
  for (int stage = 0; stage <= highest_stage; ++stage) add_stage(stage, 0, Offload::none);
  // HSDP (docs/methodology.md#sharding-zero-fsdp-tensor-pipeline-and-expert-parallelism):
  // ZeRO-3 sharded within each node and replicated across nodes, only where it differs from
  // ZeRO-3 (several nodes) and without model parallelism. One node per group, as FSDP's
  // HYBRID_SHARD shards (pytorch/pytorch#117470); the launchers mlsize emits set no larger
  // device mesh.
  if (highest_stage == 3 && layout.units > 1 && layout.offering->devices_per_unit > 1) {
    add_stage(3, layout.offering->devices_per_unit, Offload::none);
  }
  if (neuron || !offloads(workload, layout)) return;
  add_stage(2, 0, Offload::optimizer);
  if (data > 1) add_stage(3, 0, Offload::optimizer);
  add_stage(3, 0, Offload::optimizer_and_params);
}

// Training plans on `devices` devices of `units` units: tensor parallel within a unit (1,
// 2, 4, ... devices), pipeline parallel over 1, 2, 4, ... stages (at most one layer each),
// the rest data parallel (add_layout_plans). Tensor parallelism comes with sequence
// parallelism, as Megatron-LM runs it.
void add_training_plans(const Workload& workload, const Offering& offering, const Device& device, int units,
                        int devices, std::vector<Plan>& plans) {
  const int layers = workload.model.layers + workload.model.encoder_layers;
  // LoRA and QLoRA: data parallel only. PEFT's multi-GPU paths are DDP, DeepSpeed ZeRO and
  // FSDP (huggingface.co/docs/peft/accelerate/deepspeed and .../fsdp: Llama-2-70B LoRA on
  // 8 GPUs with ZeRO-3 or FSDP; QLoRA's 4-bit base shards with FSDP, Answer.AI's
  // FSDP-QLoRA), and no launcher mlsize emits runs adapters with tensor or pipeline
  // parallelism (Megatron-LM's pretrain_gpt.py trains every weight).
  // Vision models: data parallel only (DDP, or FSDP for the largest ViTs); no launcher shards
  // a CNN's layers, and an image's activations are small.
  // A named --framework keeps to its own layouts (framework_runs, in add_layout_plans).
  const bool data_parallel_only = workload.is_adapter_tuning() || workload.samples_are_tokens();
  const int most_model_parallel = data_parallel_only ? 1 : devices;
  for (int tensor = 1; tensor <= std::min(offering.devices_per_unit, most_model_parallel) && devices % tensor == 0;
       tensor *= 2) {
    if (!splits_tensors(workload.model, interconnect_of(device, &offering), tensor)) break;
    for (int pipeline = 1; tensor * pipeline <= most_model_parallel && devices % (tensor * pipeline) == 0 &&
                           (pipeline == 1 || pipeline <= layers);
         pipeline *= 2) {
      add_layout_plans(workload, Layout{&offering, &device, units, devices, tensor, pipeline}, plans);
    }
  }
}

// Serving a load: a replica is t devices of one unit (1, 2, 4, 8 as vLLM splits within a
// node), the query and key/value heads divided evenly, and a device link for t > 1.
void add_serving_plans(const Workload& workload, const Offering& offering, const Device& device, int units,
                       std::vector<Plan>& plans) {
  for (int tensor = 1; tensor <= std::min(offering.devices_per_unit, k_max_serving_tensor_parallel) &&
                       offering.devices_per_unit % tensor == 0;
       tensor *= 2) {
    if (!splits_tensors(workload.model, interconnect_of(device, &offering), tensor, true)) break;
    Strategy strategy;
    strategy.tensor_parallel = tensor;
    plans.push_back(Plan{&offering, &device, units, units * offering.devices_per_unit, strategy});
  }
  // A mixture of experts may split its experts over 2, 4, 8 devices of a unit instead, each
  // running attention for its own sequences (SGLang's --enable-dp-attention with expert
  // parallelism, TensorRT-LLM's attention DP): no all-reduce per layer, and the KV cache of
  // an MLA model is not repeated on every rank (docs/methodology.md#expert-parallel-serving).
  const MoeShape& moe = workload.model.moe;
  if (!workload.model.is_moe() || moe.experts <= moe.experts_per_token || !interconnect_of(device, &offering)) return;
  for (int expert = 2; expert <= std::min(offering.devices_per_unit, k_max_serving_tensor_parallel) &&
                       offering.devices_per_unit % expert == 0 && moe.experts % expert == 0;
       expert *= 2) {
    Strategy strategy;
    strategy.expert_parallel = expert;
    plans.push_back(Plan{&offering, &device, units, units * offering.devices_per_unit, strategy});
  }
}

}  // namespace

int max_plan_units(const Workload& workload, const Offering& offering, int max_devices) {
  // Training across units needs a network between them: a unit of the catalogue is one
  // machine, and separate VMs are a cluster only where the offering states its fabric
  // (network_gbps). Inference replicas share nothing, so they may span any units.
  // Gradient-boosted trees: machines with a stated network, under Dask or Spark; scikit-learn
  // runs on one machine.
  const bool clusters = workload.task == Task::gbdt
                            ? offering.network_gbps.has_value() && workload.library != GbdtLibrary::sklearn
                            : offering.network_gbps.has_value() || workload.task == Task::inference;
  const int unit_limit = clusters ? offering.max_units.value_or(max_devices) : 1;
  return std::min(unit_limit, max_devices / offering.devices_per_unit);
}

std::vector<Plan> candidate_plans(const Workload& workload, const Offering& offering, const Device& device,
                                  int max_devices, std::span<const int> device_counts) {
  std::vector<Plan> plans;
  candidate_plans(plans, workload, offering, device, max_devices, device_counts);
  return plans;
}

void candidate_plans(std::vector<Plan>& plans, const Workload& workload, const Offering& offering, const Device& device,
                     int max_devices, std::span<const int> device_counts) {
  plans.clear();
  auto add_plans = [&](int units) {
    const int devices = units * offering.devices_per_unit;
    if (workload.task == Task::gbdt) {
      Strategy strategy;
      strategy.trees_on_gpu = device.kind == DeviceKind::gpu;
      strategy.tree_machines = units * machines_per_unit(offering);
      plans.push_back(Plan{&offering, &device, units, devices, strategy});
      // One GPU whose memory is short of the ELLPACK cache: XGBoost's external memory, where
      // the host link is stated (docs/methodology.md#gbdt-external-memory). Across GPUs it
      // is not yet in xgboost.dask (XGBoost doc/tutorials/external_memory.rst).
      if (strategy.trees_on_gpu && devices == 1 && strategy.tree_machines == 1 &&
          lay_out_external_memory(strategy, device, &offering) &&
          gbdt_memory(workload, true, 1).quantised > k_extmem_device_cache_share * strategy.trees_extmem_gpu_bytes) {
        plans.push_back(Plan{&offering, &device, units, devices, strategy});
      }
    } else if (workload.task == Task::inference && workload.serving) {
      // Serving a load: one plan per tensor degree; the estimate sizes the fleet, so the
      // units here are a placeholder (docs/methodology.md#serving). An offline job tries
      // 1, 2, 4, ... units, as training does; counts the user asked for are the fleet.
      const std::size_t first = plans.size();
      if (units == 1 || workload.serving->offline() || !device_counts.empty()) {
        add_serving_plans(workload, offering, device, units, plans);
      }
      for (std::size_t i = first; i < plans.size(); ++i) plans[i].fixed_units = !device_counts.empty();
    } else if (workload.task == Task::inference && workload.samples_are_tokens()) {
      // Scoring or generating images: each device a replica (no model is split). A fleet for
      // a rate of images is sized by the estimate: one plan, its units a placeholder.
      if (units == 1 || !workload.serves_a_fleet() || !device_counts.empty()) {
        plans.push_back(Plan{&offering, &device, units, devices, Strategy{}});
        plans.back().fixed_units = workload.serves_a_fleet() && !device_counts.empty();
      }
      // A batch job of generated images (no rate to answer in time) also at 2, 4, ... up to
      // k_largest_generation_batch images a device at once: the step's fixed cost is shared,
      // for the memory of more images (the estimate keeps what fits).
      // Transcription likewise, up to the engine's largest batch of windows.
      const int largest = workload.speech      ? speech_engine_profile(workload.speech->engine).max_batch
                          : workload.diffusion ? k_largest_generation_batch
                                               : 1;
      if (!workload.serves_a_fleet() && !workload.micro_batch_pinned) {
        for (int batch = 2; batch <= largest; batch *= 2) {
          Strategy strategy;
          strategy.micro_batch = batch;
          plans.push_back(Plan{&offering, &device, units, devices, strategy});
        }
      }
    } else if (workload.task == Task::inference) {
      // Tensor parallel within a unit (1, 2, 4, ... devices, at most the 8 of a GPU node:
      // vLLM serves with "tensor parallel size = the number of GPUs in each node"; its
      // per-layer all-reduces are not timed here, so wider splits would look free), the
      // query heads divided evenly, the rest as replicas.
      for (int tensor = 1; tensor <= std::min(offering.devices_per_unit, k_max_serving_tensor_parallel) &&
                           devices % tensor == 0 && (workload.model.heads == 0 || workload.model.heads % tensor == 0);
           tensor *= 2) {
        Strategy strategy;
        strategy.tensor_parallel = tensor;
        plans.push_back(Plan{&offering, &device, units, devices, strategy});
      }
    } else {
      add_training_plans(workload, offering, device, units, devices, plans);
    }
  };
  const int most_units = max_plan_units(workload, offering, max_devices);
  if (device_counts.empty()) {
    for (int units = 1; units <= most_units; units *= 2) add_plans(units);
    return;
  }
  // Counts the user asked for (--gpus h100:8): any whole number of units, not only powers of
  // two, since the user chose it.
  std::vector<int> counts(device_counts.begin(), device_counts.end());
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  for (int count : counts) {
    if (count % offering.devices_per_unit != 0) continue;
    const int units = count / offering.devices_per_unit;
    if (units >= 1 && units <= most_units) add_plans(units);
  }
}

}  // namespace mlsize
