#include "cli/io/machine_probe.hpp"

#include "cli/io/input_file.hpp"

#include <mlsize/support/error.hpp>
#include <mlsize/support/names.hpp>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

extern char** environ;

namespace mlsize::cli {
namespace {

// What running a tool gave: not found, or its exit status and standard output.
struct ToolRun {
  bool found = false;
  int status = 0;  // the exit status; -1 when it did not exit normally
  std::string output;
  std::string failure;  // why it could not be started, other than not found
  bool timed_out = false;
};

// How long a tool may take. They answer in well under a second, but nvidia-smi blocks
// when the driver is wedged (a GPU fallen off the bus, a hung kernel module), and detect
// must say so rather than hang.
constexpr int k_tool_timeout_ms = 10'000;

// Runs `command` (found on PATH) with no input, its standard error discarded, and reads its
// standard output to the end, or kills it after k_tool_timeout_ms. The deadline covers the
// whole run, not only the output (issue 46: a tool that closed its stdout and slept was
// waited for without a limit), and the tool runs in a process group of its own, so that
// what it started dies with it.
ToolRun run_tool(std::span<const std::string_view> command) {
  ToolRun run;
  std::array<int, 2> pipe_ends{};
  if (::pipe(pipe_ends.data()) != 0) {
    run.failure = std::strerror(errno);
    return run;
  }
  ::fcntl(pipe_ends[0], F_SETFD, FD_CLOEXEC);
  ::fcntl(pipe_ends[1], F_SETFD, FD_CLOEXEC);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> words(command.begin(), command.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);  // its own group, led by itself
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(pipe_ends[1]);
  if (spawned != 0) {
    ::close(pipe_ends[0]);
    if (spawned != ENOENT) run.failure = std::strerror(spawned);
    return run;
  }
  run.found = true;
  std::array<char, 65536> buffer{};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(k_tool_timeout_ms);
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    pollfd ready{pipe_ends[0], POLLIN, 0};
    const int polled = left > 0 ? ::poll(&ready, 1, static_cast<int>(left)) : 0;
    if (polled < 0 && errno == EINTR) continue;
    if (polled == 0) {
      ::kill(-pid, SIGKILL);
      run.timed_out = true;
      break;
    }
    const ssize_t got = ::read(pipe_ends[0], buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    // Past the limit the rest is read and dropped, so that the tool is not left blocked.
    const std::size_t room = k_max_machine_output_bytes - std::min(run.output.size(), k_max_machine_output_bytes);
    run.output.append(buffer.data(), std::min(room, static_cast<std::size_t>(got)));
  }
  ::close(pipe_ends[0]);
  int status = 0;
  // Its output ended; the tool itself gets what is left of the deadline to exit.
  while (!run.timed_out) {
    const pid_t waited = ::waitpid(pid, &status, WNOHANG);
    if (waited == pid || (waited < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);
      run.timed_out = true;
      break;
    }
    const struct timespec pause { 0, 10'000'000L };
    ::nanosleep(&pause, nullptr);
  }
  if (run.timed_out) {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::string first_line(const std::string& text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return {};
  std::string line = text.substr(start, text.find('\n', start) - start);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

std::string command_line(std::span<const std::string_view> command) {
  std::string text;
  for (const std::string_view word : command) {
    if (!text.empty()) text += ' ';
    text += word;
  }
  return text;
}

// Runs the tool of `source`; its output, or a note on why there is none. `absent` says what a
// missing tool means ("no NVIDIA GPU, or its driver is not installed").
bool run_source(MachineSource source, const std::string& absent, MachineReadings& readings) {
  const SourceProbe probe = probe_of(source);
  const std::string tool(probe.command.front());
  const ToolRun run = run_tool(probe.command);
  if (!run.found) {
    readings.notes.push_back(tool + ": " + (run.failure.empty() ? "not installed (" + absent + ")" : run.failure));
    return false;
  }
  if (run.timed_out) {
    readings.notes.push_back(command_line(probe.command) + ": no answer within " +
                             std::to_string(k_tool_timeout_ms / 1000) + " s (a hung driver?); stopped");
    return false;
  }
  if (run.status != 0) {
    const std::string said = first_line(run.output);
    readings.notes.push_back(command_line(probe.command) + ": exit status " + std::to_string(run.status) +
                             (said.empty() ? std::string() : ": " + said));
    return false;
  }
  readings.readings.push_back({source, run.output, tool});
  return true;
}

bool read_file_source(MachineSource source, MachineReadings& readings) {
  const std::string path(probe_of(source).file);
  if (::access(path.c_str(), R_OK) != 0) return false;
  try {
    readings.readings.push_back({source, read_input_file(path, k_max_machine_output_bytes), path});
    return true;
  } catch (const Error& error) {
    readings.notes.push_back(path + ": " + error.message());
    return false;
  }
}

}  // namespace

MachineReadings probe_machine() {
  MachineReadings readings;
  if (run_source(MachineSource::nvidia_smi, "no NVIDIA GPU, or no NVIDIA driver", readings)) {
    // The MIG instances, listed under their GPUs.
    run_source(MachineSource::nvidia_smi_list, "", readings);
  }
  run_source(MachineSource::rocm_smi, "no AMD GPU, or no ROCm", readings);
  const bool cpuinfo = read_file_source(MachineSource::cpuinfo, readings);
  const bool meminfo = read_file_source(MachineSource::meminfo, readings);
  // No /proc (macOS): sysctl says what the CPU and the memory are.
  if (!cpuinfo || !meminfo) run_source(MachineSource::sysctl, "no /proc/cpuinfo either", readings);
  return readings;
}

MachineReadings read_recorded_machine(const std::string& directory) {
  struct stat info {};
  if (::stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    Error error(ErrorKind::input,
                ::stat(directory.c_str(), &info) != 0 ? std::string("cannot open: ") + std::strerror(errno)
                                                      : std::string("not a directory"),
                "give a directory of recorded outputs (docs/cli.md#detect)");
    error.at(SourceLocation{directory, 0, 0, {}});
    throw error;
  }
  MachineReadings readings;
  std::vector<std::string> gpu_files;
  for (const EnumName<MachineSource>& entry : name_table<MachineSource>()) {
    const MachineSource source = entry.value;
    const std::string file(entry.name);
    const std::string path = directory + (directory.ends_with('/') ? "" : "/") + file;
    if (::access(path.c_str(), F_OK) != 0) {
      if (source == MachineSource::nvidia_smi || source == MachineSource::rocm_smi) gpu_files.push_back(file);
      continue;
    }
    readings.readings.push_back({source, read_input_file(path, k_max_machine_output_bytes), path});
  }
  if (readings.readings.empty()) {
    Error error(ErrorKind::input, "none of the recorded outputs is there",
                "record them as docs/cli.md#detect shows: nvidia-smi.csv, nvidia-smi-L.txt, rocm-smi.json, "
                "cpuinfo, meminfo, sysctl.txt");
    error.at(SourceLocation{directory, 0, 0, {}});
    throw error;
  }
  if (gpu_files.size() == 2) readings.notes.push_back("no GPU tool's output recorded (nvidia-smi.csv, rocm-smi.json)");
  return readings;
}

}  // namespace mlsize::cli
