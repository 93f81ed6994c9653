#pragma once
// Reading a machine: its tools run (nvidia-smi, rocm-smi, sysctl) and its files read
// (/proc/cpuinfo, /proc/meminfo), or the same outputs recorded in a directory. A tool that
// is not installed or fails is a note ("nvidia-smi: not installed"), never an error.

#include <mlsize/machine/machine.hpp>

#include <cstddef>
#include <string>

namespace mlsize::cli {

// Larger outputs and recorded files are refused (a cpuinfo of 1000 CPUs is about 1.5 MiB).
inline constexpr std::size_t k_max_machine_output_bytes = 16 * 1024 * 1024;

// This machine, as docs/cli.md#detect lists what is run and read.
MachineReadings probe_machine();

// The outputs recorded in `directory`, one file per source named as to_string(MachineSource)
// (nvidia-smi.csv, nvidia-smi-L.txt, rocm-smi.json, cpuinfo, meminfo, sysctl.txt); a file
// that is absent was not recorded. Throws Error (input) when `directory` is not a directory
// or holds none of them, or a file cannot be read.
MachineReadings read_recorded_machine(const std::string& directory);

}  // namespace mlsize::cli
