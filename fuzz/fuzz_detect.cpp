// Fuzzes `detect --from`'s readers of recorded machine outputs: the first byte picks the
// reader (nvidia-smi CSV, nvidia-smi -L after a CSV's GPUs, rocm-smi JSON, /proc/cpuinfo,
// /proc/meminfo, sysctl); the rest is the file. Each either parses or throws mlsize::Error
// naming the file and line: anything else (a std exception, a crash) is a finding.
#include <mlsize/machine/machine.hpp>
#include <mlsize/support/error.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t selector = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    switch (selector % 6) {
      case 0: (void)mlsize::parse_nvidia_smi_csv(text, "nvidia-smi.csv"); break;
      case 1: {
        // -L adds MIG instances to the GPUs the CSV found (or lists the GPUs alone).
        std::vector<mlsize::DetectedGpu> gpus;
        if (selector & 0x80) gpus = mlsize::parse_nvidia_smi_csv("index, name, memory.total [MiB]\n0, A100, 40960\n",
                                                                 "seed.csv");
        mlsize::parse_nvidia_smi_list(text, "nvidia-smi-L.txt", gpus);
        break;
      }
      case 2: (void)mlsize::parse_rocm_smi_json(text, "rocm-smi.json"); break;
      case 3: (void)mlsize::parse_cpuinfo(text, "cpuinfo"); break;
      case 4: (void)mlsize::parse_meminfo(text, "meminfo"); break;
      case 5: (void)mlsize::parse_sysctl(text, "sysctl.txt"); break;
    }
  } catch (const mlsize::Error&) {
    return 0;
  }
  return 0;
}
