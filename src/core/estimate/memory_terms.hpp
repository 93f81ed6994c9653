#pragma once
// The parts of estimate_memory, one per task, written once for T = double (the planner's
// path: no text, no allocation) and T = Formula (`--explain`: each term with its formula,
// from the same expressions). See <mlsize/estimate/formula.hpp>.

#include <mlsize/estimate/formula.hpp>
#include <mlsize/estimate/memory.hpp>

#include <optional>
#include <string>
#include <type_traits>

namespace mlsize::memory_detail {

// Collects the `--explain` rows: term() gives a term's bytes and, when explaining, adds its
// row. For double nothing is collected and the inputs are never formatted: `inputs` is a
// callable that writes them only when explaining.
template <class T>
class ExplainRows {
 public:
  template <class Inputs>
  Bytes term(const char* /*term*/, double value, const Inputs& /*inputs*/) {
    return Bytes(value);
  }
  // The training activations when the caller knows them already (estimate_memory's
  // overload for the planner), else computed.
  std::optional<double> activations;
};

template <>
class ExplainRows<Formula> {
 public:
  explicit ExplainRows(Explanation& rows) : rows_(rows) {}
  template <class Inputs>
  Bytes term(const char* term, const Formula& value, const Inputs& inputs) {
    rows_.push_back({term, value.text(), inputs(), Bytes(value.value())});
    return Bytes(value.value());
  }

 private:
  Explanation& rows_;
};

// training_activation_bytes(w, st), or what the caller of estimate_memory knew of it.
template <class T>
double activation_bytes(const Workload& w, const Strategy& st, const ExplainRows<T>& rows) {
  if constexpr (std::is_same_v<T, double>) {
    if (rows.activations) return *rows.activations;
  }
  return training_activation_bytes(w, st).value;
}

// The parallel degrees of a plan as formula inputs. On one device nothing is split: they
// are plain numbers (all 1), which formulas leave out.
template <class T>
struct Degrees {
  T tensor;    // t
  T pipeline;  // p
  T model;     // t·p
  T data;      // dp
  T expert;    // ep
  T devices;
};

template <class T>
Degrees<T> degrees(const Strategy& st, int device_count) {
  if (device_count == 1) {
    return {T(st.tensor_parallel), T(st.pipeline_parallel), T(st.model_parallel()), T(st.shard_degree(device_count)),
            T(st.expert_parallel), T(device_count)};
  }
  // Under HSDP ZeRO shards over the group, not every data-parallel rank (strategy.hpp).
  const bool hybrid = st.hybrid_sharded(device_count);
  return {
      named<T>("t", st.tensor_parallel),      named<T>("p", st.pipeline_parallel),
      named<T>("(t·p)", st.model_parallel()), named<T>(hybrid ? "shard group" : "dp", st.shard_degree(device_count)),
      named<T>("ep", st.expert_parallel),     named<T>("devices", device_count)};
}

// "t=1, p=1, dp=8, ZeRO-3", for the inputs of the explanation.
std::string layout_text(const Strategy& st, int device_count);

// Each part sets its terms of `memory` and adds their rows. The breakdown is filled in
// place (not returned and copied) to keep the planner's path as fast as one function.
template <class T>
void trees_memory(const Workload& w, int device_count, const Strategy& st, MemoryBreakdown& memory,
                  ExplainRows<T>& rows);
template <class T>
void inference_memory(const Workload& w, int device_count, const Strategy& st, const Degrees<T>& split,
                      MemoryBreakdown& memory, ExplainRows<T>& rows);
// LoRA and QLoRA: a frozen base and trained adapters.
template <class T>
void adapter_memory(const Workload& w, int device_count, const Strategy& st, const Degrees<T>& split,
                    MemoryBreakdown& memory, ExplainRows<T>& rows);
// Pre-training and full fine-tuning.
template <class T>
void full_training_memory(const Workload& w, int device_count, const Strategy& st, const Degrees<T>& split,
                          MemoryBreakdown& memory, ExplainRows<T>& rows);
// What every training task adds after its model states: activations and offloading.
template <class T>
void add_training_tail(const Workload& w, const Strategy& st, MemoryBreakdown& memory, ExplainRows<T>& rows);

}  // namespace mlsize::memory_detail
