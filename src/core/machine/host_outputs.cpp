// The host's own files: Linux's /proc/cpuinfo and /proc/meminfo (proc(5)), and macOS's
// sysctl (sysctl(3): machdep.cpu.brand_string, hw.memsize, hw.ncpu, hw.physicalcpu,
// hw.packages).

#include <mlsize/machine/machine.hpp>

#include "core/support/text_lines.hpp"

#include <map>
#include <set>
#include <string>

namespace mlsize {

using namespace text;

namespace {

// cpuinfo's vendor_id (x86) or CPU implementer (Arm: 0x41 Arm Ltd, 0x61 Apple; the Linux
// kernel's arch/arm64/include/asm/cputype.h).
std::string vendor_of(std::string_view vendor_id, std::string_view implementer) {
  if (vendor_id == "GenuineIntel") return "intel";
  if (vendor_id == "AuthenticAMD") return "amd";
  if (lower(implementer) == "0x61") return "apple";
  if (!implementer.empty()) return "arm";
  return {};
}

}  // namespace

DetectedCpu parse_cpuinfo(std::string_view text, const std::string& name) {
  DetectedCpu cpu;
  std::string_view vendor_id;
  std::string_view implementer;
  std::string_view other_model;                 // "Processor" (32-bit Arm kernels), "cpu model" (MIPS)
  std::map<std::string, int> cores_per_socket;  // physical id -> its "cpu cores"
  std::string socket;                           // of the current processor
  int number = 0;
  for (const std::string_view line : lines_of(text)) {
    ++number;
    const std::optional<KeyValue> entry = key_value(line);
    if (!entry) {
      if (!trim(line).empty())
        fail_at(name, number, line, "not a \"key : value\" line", "give the text of /proc/cpuinfo");
      continue;
    }
    const std::string key = lower(entry->key);
    if (key == "processor" && whole_number(entry->value)) {
      ++cpu.threads;
      socket.clear();
    } else if (key == "model name" && cpu.model.empty()) {
      cpu.model = std::string(entry->value);
    } else if ((key == "processor" || key == "cpu model") && other_model.empty()) {
      other_model = entry->value;
    } else if (key == "vendor_id") {
      vendor_id = entry->value;
    } else if (key == "cpu implementer") {
      implementer = entry->value;
    } else if (key == "physical id") {
      socket = std::string(entry->value);
      cores_per_socket.try_emplace(socket, 0);
    } else if (key == "cpu cores" && !socket.empty()) {
      const std::optional<double> cores = whole_number(entry->value);
      if (cores && *cores <= 1e6) {  // a million cores is no socket (and an int holds it)
        cores_per_socket[socket] = static_cast<int>(*cores);
      }
    }
  }
  if (cpu.threads == 0) {
    fail_at(name, 0, {}, "no \"processor\" entries", "give the text of /proc/cpuinfo (one block per logical CPU)");
  }
  if (cpu.model.empty()) cpu.model = std::string(other_model);
  cpu.vendor = vendor_of(vendor_id, implementer);
  cpu.sockets = std::max(1, static_cast<int>(cores_per_socket.size()));
  for (const auto& [id, cores] : cores_per_socket) cpu.cores += cores;
  // No "cpu cores" (Arm, some VMs): each logical CPU counts as a core.
  if (cpu.cores == 0) cpu.cores = cpu.threads;
  return cpu;
}

Bytes parse_meminfo(std::string_view text, const std::string& name) {
  int number = 0;
  for (const std::string_view line : lines_of(text)) {
    ++number;
    const std::optional<KeyValue> entry = key_value(line);
    if (!entry || entry->key != "MemTotal") continue;
    // "MemTotal:       24683584 kB": kB here is 1024 bytes (proc(5)).
    std::string_view value = entry->value;
    if (value.ends_with("kB")) value = trim(value.substr(0, value.size() - 2));
    const std::optional<double> kibibytes = whole_number(value);
    if (!kibibytes)
      fail_at(name, number, line, "MemTotal is not a number of kB",
              "as /proc/meminfo writes it: MemTotal: 24683584 kB");
    return Bytes(*kibibytes * 1024.0);
  }
  fail_at(name, 0, {}, "no MemTotal line", "give the text of /proc/meminfo");
}

SysctlFacts parse_sysctl(std::string_view text, const std::string& name) {
  SysctlFacts facts;
  std::optional<double> packages;
  bool any = false;
  int number = 0;
  for (const std::string_view line : lines_of(text)) {
    ++number;
    const std::optional<KeyValue> entry = key_value(line);
    if (!entry) continue;
    const auto count = [&](std::string_view what) {
      const std::optional<double> value = whole_number(entry->value);
      if (!value || *value > 1e15 * 1024) fail_at(name, number, line, std::string(what) + " is not a whole number");
      any = true;
      return *value;
    };
    // Cores, threads and packages become ints: beyond a million is no machine (and would not
    // fit; fuzz_detect's finding).
    const auto cpus = [&](std::string_view what) {
      const double value = count(what);
      if (value > 1e6) fail_at(name, number, line, std::string(what) + " is more than a machine has");
      return static_cast<int>(value);
    };
    if (entry->key == "machdep.cpu.brand_string") {
      facts.cpu.model = std::string(entry->value);
      any = true;
    } else if (entry->key == "hw.memsize") {
      facts.memory = Bytes(count("hw.memsize"));
    } else if (entry->key == "hw.ncpu" || entry->key == "hw.logicalcpu") {
      facts.cpu.threads = cpus(entry->key);
    } else if (entry->key == "hw.physicalcpu") {
      facts.cpu.cores = cpus("hw.physicalcpu");
    } else if (entry->key == "hw.packages") {
      packages = cpus("hw.packages");
    }
  }
  if (!any) {
    fail_at(name, 0, {}, "none of machdep.cpu.brand_string, hw.memsize, hw.ncpu",
            "record it with sysctl machdep.cpu.brand_string hw.memsize hw.ncpu hw.physicalcpu hw.packages");
  }
  if (packages && *packages >= 1) facts.cpu.sockets = static_cast<int>(*packages);
  if (facts.cpu.cores == 0) facts.cpu.cores = facts.cpu.threads;
  if (facts.cpu.threads == 0) facts.cpu.threads = facts.cpu.cores;
  const std::string model = lower(facts.cpu.model);
  facts.cpu.vendor = model.starts_with("apple") ? "apple" : model.starts_with("intel") ? "intel" : "";
  return facts;
}

}  // namespace mlsize
