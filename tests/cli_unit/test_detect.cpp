// mlsize detect on a live machine: the tools found on PATH are run and read, a missing or
// failing one is a note, and the machine's CPU and RAM are always listed. The fake tools
// are shell scripts that print the recorded outputs of tests/data/detect/.

#include "run_capture.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

using mlsize::testing::run_cli;

namespace {

const std::string k_detect_data = std::string(MLSIZE_TEST_DATA_DIR) + "/detect";

// PATH set to one directory for the scope's life, then restored.
class PathOf {
 public:
  explicit PathOf(const std::filesystem::path& directory) {
    if (const char* path = std::getenv("PATH")) m_saved = path;
    ::setenv("PATH", directory.c_str(), 1);
  }
  ~PathOf() {
    if (m_saved) {
      ::setenv("PATH", m_saved->c_str(), 1);
    } else {
      ::unsetenv("PATH");
    }
  }
  PathOf(const PathOf&) = delete;
  PathOf& operator=(const PathOf&) = delete;

 private:
  std::optional<std::string> m_saved;
};

// A directory of its own under the temporary directory, removed at the end of the scope.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "mlsize-detect-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    m_path = pattern;
  }
  ~TempDir() { std::filesystem::remove_all(m_path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

// The text with each line break and the indent after it read as one space: the table wraps
// its prose at 80 columns.
std::string unwrapped(const std::string& text) {
  std::string flat;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      flat += text[i];
      continue;
    }
    flat += ' ';
    while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
  }
  return flat;
}

void write_script(const std::filesystem::path& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body;
  ::chmod(path.c_str(), 0755);
}

}  // namespace

TEST_CASE("detect on this machine lists its CPU and RAM and exits 0", "[cli][detect]") {
  const auto result = run_cli({"detect"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(result.out.find("\nCPU: ") != std::string::npos);
  CHECK(result.out.find("\nRAM: ") != std::string::npos);
  CHECK(result.out.find("Read from this machine.") != std::string::npos);
  CHECK(run_cli({"detect", "--format", "json"}).exit_code == 0);
}

TEST_CASE("detect --format yaml writes the JSON document as YAML", "[cli][detect]") {
  const auto yaml = run_cli({"detect", "--from", k_detect_data + "/t4", "--format", "yaml"});
  REQUIRE(yaml.exit_code == 0);
  CHECK(yaml.out.starts_with("schema_version: 1\ncommand: detect\n"));
  CHECK(yaml.out.find("\n    device: t4\n") != std::string::npos);
  CHECK(run_cli({"detect", "--format", "csv"}).exit_code == 2);
}

TEST_CASE("detect notes a GPU tool that is not installed and exits 0", "[cli][detect]") {
  const TempDir empty;
  const PathOf path(empty.path());
  const auto result = run_cli({"detect"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  const std::string out = unwrapped(result.out);
  CHECK(out.find("No GPU found on this machine.") != std::string::npos);
  CHECK(out.find(" nvidia-smi: not installed (no NVIDIA GPU, or no NVIDIA driver) ") != std::string::npos);
  CHECK(out.find(" rocm-smi: not installed (no AMD GPU, or no ROCm) ") != std::string::npos);
}

TEST_CASE("detect runs nvidia-smi from PATH and maps its GPUs", "[cli][detect]") {
  const TempDir tools;
  write_script(tools.path() / "nvidia-smi",
               "case \"$1\" in\n  -L) exec /bin/cat '" + k_detect_data + "/h100x8/nvidia-smi-L.txt' ;;\n"
               "  --query-gpu=index,name,memory.total,pci.bus_id,mig.mode.current) exec /bin/cat '" + k_detect_data +
                   "/h100x8/nvidia-smi.csv' ;;\nesac\nexit 2\n");
  // A rocm-smi without a working driver: it exits with an error.
  write_script(tools.path() / "rocm-smi", "echo 'ERROR: GPU[0] : Unable to open /dev/kfd'\nexit 1\n");
  const PathOf path(tools.path());
  const auto result = run_cli({"detect", "--format", "json"});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("\"machine\": \"this machine\"") != std::string::npos);
  std::size_t mapped = 0;
  for (std::size_t at = result.out.find("\"device\": \"h100-sxm\""); at != std::string::npos;
       at = result.out.find("\"device\": \"h100-sxm\"", at + 1)) {
    ++mapped;
  }
  CHECK(mapped == 9);  // eight GPUs, and what --here plans on
  CHECK(result.out.find("\"devices\": 8") != std::string::npos);
  CHECK(result.out.find("rocm-smi --showproductname --showmeminfo vram --json: exit status 1: ERROR: GPU[0] : Unable "
                        "to open /dev/kfd") != std::string::npos);
}

TEST_CASE("detect notes a tool that fails or writes what it cannot read", "[cli][detect]") {
  const TempDir tools;
  // The driver is not loaded: nvidia-smi says so on stdout and exits 9.
  write_script(tools.path() / "nvidia-smi",
               "echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"\nexit 9\n");
  write_script(tools.path() / "rocm-smi", "echo 'not JSON at all'\n");
  const PathOf path(tools.path());
  const auto result = run_cli({"detect"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  const std::string out = unwrapped(result.out);
  CHECK(out.find("nvidia-smi --query-gpu=index,name,memory.total,pci.bus_id,mig.mode.current --format=csv: "
                        "exit status 9: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
                        "driver.") != std::string::npos);
  CHECK(out.find("rocm-smi: its output was not understood (no JSON object in rocm-smi's output)") != std::string::npos);
}

TEST_CASE("recommend --here and estimate --here read the same machine as detect", "[cli][detect]") {
  const std::string h100 = k_detect_data + "/h100x8";
  const auto here = run_cli({"estimate", "--here", "--from", h100, "--params", "7B", "--data", "20GB", "--zero", "1",
                             "--format", "json"});
  // A run here has no cloud setup time: the bare devices without one.
  const auto gpus = run_cli({"estimate", "--gpus", "h100-sxm:8", "--params", "7B", "--data", "20GB", "--zero", "1",
                             "--setup-time", "0", "--format", "json"});
  REQUIRE(here.exit_code == 0);
  REQUIRE(gpus.exit_code == 0);
  // The same memory and time as the bare devices: only the offering (owned: electricity) differs.
  const auto between = [](const std::string& text, const std::string& from, const std::string& to) {
    const std::size_t start = text.find(from);
    return text.substr(start, text.find(to, start) - start);
  };
  CHECK(between(here.out, "\"memory\"", "\"cost\"") == between(gpus.out, "\"memory\"", "\"cost\""));
  CHECK(here.out.find("\"id\": \"here\"") != std::string::npos);
  const auto ranked = run_cli({"recommend", "--here", "--from", h100, "--params", "7B", "--data", "20GB", "--top",
                               "1", "--format", "json"});
  REQUIRE(ranked.exit_code == 0);
  CHECK(ranked.out.find("\"feasible_count\": 1") != std::string::npos);
}

TEST_CASE("detect stops a tool that does not answer, and says so", "[cli][detect]") {
  const TempDir tools;
  // A wedged driver: nvidia-smi blocks (here for a minute; the probe waits 10 s).
  write_script(tools.path() / "nvidia-smi", "exec /bin/sleep 60\n");
  const PathOf path(tools.path());
  const auto started = std::chrono::steady_clock::now();
  const auto result = run_cli({"detect"});
  const auto took = std::chrono::steady_clock::now() - started;
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(took < std::chrono::seconds(30));
  CHECK(unwrapped(result.out).find("--format=csv: no answer within 10 s (a hung driver?); stopped") !=
        std::string::npos);
}

// Issue 46: a tool that closes its stdout and keeps running was waited for without a limit
// (two 14 s nvidia-smi calls took 28 s). The deadline covers the whole run, and the tool's
// process group is killed at it.
TEST_CASE("detect stops a tool that closed its output but keeps running, at the deadline", "[cli][detect]") {
  const TempDir tools;
  // It also starts a child that holds nothing open: killed with its group.
  write_script(tools.path() / "nvidia-smi", "exec >&-\n/bin/sleep 30 &\n/bin/sleep 30\n");
  const PathOf path(tools.path());
  const auto started = std::chrono::steady_clock::now();
  const auto result = run_cli({"detect"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  INFO(result.out << result.err);
  CHECK(seconds < 13);  // the 10 s deadline, once: no second nvidia-smi call after a hung one
  CHECK(result.out.find("no answer within 10 s") != std::string::npos);
}
