// Fuzzes the Hugging Face config reader; for every config it accepts, counts the
// parameters and estimates memory for training and inference, which must stay finite.
#include <mlsize/support/error.hpp>
#include <mlsize/estimate/memory.hpp>
#include <mlsize/model/model_config.hpp>
#include <mlsize/model/parameter_count.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mlsize::Workload workload;
  try {
    workload.model = mlsize::architecture_from_hf_config(text, "fuzz.json");
  } catch (const mlsize::Error&) {
    return 0;
  }
  workload.parameters = mlsize::count_parameters(workload.model);
  workload.tokens = 1e9;
  for (mlsize::Task task : {mlsize::Task::pretrain, mlsize::Task::qlora, mlsize::Task::inference}) {
    workload.task = task;
    const mlsize::MemoryBreakdown memory = mlsize::estimate_memory(workload, 8, mlsize::Strategy{});
    if (!std::isfinite(memory.total().value) || memory.total().value < 0) std::abort();
  }
  return 0;
}
