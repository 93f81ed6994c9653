// Every reader of outside input, fed a mutated corpus through the whole command line: no
// output may say "internal error" (issue 31, must-have 3). The fuzz targets (fuzz/) find
// the same bugs deeper and faster, but need clang and hours; this runs in every build, the
// sanitizer one included. The mutations are the black-box run's that found the MIG profile
// and the 1e400 price: bytes changed, inserted, deleted and repeated, lines spliced from
// another seed, tokens a reader meets at its edges (NaN, 1e400, a bidi override, a quote,
// a YAML anchor) and truncation. A fixed seed makes them the same on every machine.
#include "run_capture.hpp"
#include "temp_files.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using mlsize::testing::fresh_directory;
using mlsize::testing::run_cli;
using mlsize::testing::slurp;
namespace fs = std::filesystem;

namespace {

const fs::path k_data = MLSIZE_TEST_DATA_DIR;
const fs::path k_source = MLSIZE_SOURCE_DIR;

constexpr std::array<std::string_view, 26> k_tokens{
    "NaN",   "Infinity", "-1",   "0",    "1e400", "99999999999999999999", "0x10", "\"",  ",",
    "\n",    "{",        "}",    "[",    "]",     ":",                    "- ",   "\t",  "#",
    "---\n", "&a ",      "*a",   "<<: ", "\xe2\x80\xae", "\xff",          "\r",   "g.40"};

// Deterministic: std::mt19937's sequence is fixed by the standard; only its raw output is
// used (the distributions are not portable).
class Mutator {
 public:
  explicit Mutator(std::uint32_t seed) : m_random(seed) {}

  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(m_random() % n); }

  std::string mutate(std::string text, const std::string& other) {
    const std::size_t steps = 1 + below(4);
    for (std::size_t step = 0; step < steps; ++step) {
      const std::size_t at = below(text.size() + 1);
      switch (below(7)) {
        case 0:
          if (!text.empty()) text[below(text.size())] = static_cast<char>(m_random() & 0xFF);
          break;
        case 1: text.insert(at, k_tokens[below(k_tokens.size())]); break;
        case 2: text.erase(at, 1 + below(16)); break;
        case 3: text.insert(at, text.substr(at, 1 + below(64))); break;
        case 4: {  // a line of the other seed
          const std::size_t from = below(other.size());
          const std::size_t end = other.find('\n', from);
          text.insert(at, other.substr(from, end == std::string::npos ? std::string::npos : end - from + 1));
          break;
        }
        case 5: text.resize(at); break;
        case 6:  // a number made large, negative or fractional where one starts
          for (std::size_t i = at; i < text.size(); ++i) {
            if (text[i] >= '0' && text[i] <= '9') {
              text.insert(i, k_tokens[1 + below(6)]);
              break;
            }
          }
          break;
      }
    }
    return text;
  }

 private:
  std::mt19937 m_random;
};

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// One run's outcome: a documented exit status, nothing on stdout on failure, and never an
// internal error.
void check_outcome(const mlsize::testing::RunResult& result, const std::string& input) {
  INFO("input (" << input.size() << " bytes):\n" << input.substr(0, 2000));
  INFO("stderr: " << result.err);
  CHECK(result.err.find("internal error") == std::string::npos);
  CHECK(result.out.find("internal error") == std::string::npos);
  CHECK(result.exit_code >= 0);
  CHECK(result.exit_code <= 3);
  if (result.exit_code == 1 || result.exit_code == 2) CHECK(result.out.empty());
}

struct Seed {
  fs::path file;   // the seed's text
  std::string as;  // the name the reader finds it under
};

// Runs `count` mutations of `seed` through `command`, which gets the mutated file's path
// in a folder of its own; `other` gives the lines spliced in (by default the seed's own).
template <class Command>
void mutate_through(const char* folder, const Seed& seed, int count, std::uint32_t random_seed, Command command,
                    const fs::path& other = {}) {
  const fs::path dir = fresh_directory(folder);
  const fs::path path = dir / seed.as;
  const std::string text = slurp(seed.file);
  const std::string spliced = slurp(other.empty() ? seed.file : other);
  REQUIRE(!text.empty());
  // The seed itself is read: the command is right, so the mutations reach the reader.
  write(path, text);
  const auto unmutated = command(path);
  INFO(seed.file.string() << ": " << unmutated.err);
  REQUIRE(unmutated.exit_code == 0);
  Mutator mutator(random_seed);
  for (int i = 0; i < count; ++i) {
    const std::string input = mutator.mutate(text, spliced);
    write(path, input);
    check_outcome(command(path), input);
  }
}

}  // namespace

TEST_CASE("mutated machine outputs through detect --from: never an internal error", "[mutation][detect]") {
  // Each reading in a folder of its own, as detect --from finds them by name.
  const std::vector<Seed> seeds{{k_data / "detect/a100-mig/nvidia-smi.csv", "nvidia-smi.csv"},
                                {k_data / "detect/a100-mig/nvidia-smi-L.txt", "nvidia-smi-L.txt"},
                                {k_data / "detect/mi300x/rocm-smi.json", "rocm-smi.json"},
                                {k_data / "detect/h100x8/cpuinfo", "cpuinfo"},
                                {k_data / "detect/h100x8/meminfo", "meminfo"},
                                {k_data / "detect/macos-m3-max/sysctl.txt", "sysctl.txt"}};
  for (std::size_t s = 0; s < seeds.size(); ++s) {
    mutate_through(
        "mlsize-mutated-detect", seeds[s], 60, static_cast<std::uint32_t>(31 + s),
        [](const fs::path& path) {
          return run_cli({"detect", "--from", path.parent_path().string(), "--format", "json"});
        },
        seeds[(s + 1) % seeds.size()].file);
  }
}

TEST_CASE("mutated measurements through calibrate --measured: never an internal error", "[mutation][calibrate]") {
  const auto calibrate = [](const char* task) {
    return [task](const fs::path& path) {
      return run_cli({"calibrate", "--model", "llama-2-7b", "--task", task, "--recompute", "full", "--framework", "hf",
                      "--device", "h200", "--measured", path.string(), "--date", "2026-12-02"});
    };
  };
  mutate_through("mlsize-mutated-smi-log",
                 {k_data / "calibration/h200-llama-2-7b-full.nvidia-smi.csv", "run.nvidia-smi.csv"}, 120, 3100,
                 calibrate("finetune"));
  mutate_through("mlsize-mutated-torch-json", {k_data / "calibration/h200-llama-2-7b-lora.json", "run.json"}, 120,
                 3101, calibrate("lora"));
  // A calibration overlay read back by estimate.
  mutate_through("mlsize-mutated-overlay", {k_data / "calibration/h200-llama-2-7b-lora.yaml", "overlay.yaml"}, 120,
                 3102, [](const fs::path& path) {
                   return run_cli({"estimate", "--model", "llama-2-7b", "--task", "lora", "--device", "h200",
                                   "--calibration", path.string(), "--no-user-catalog"});
                 });
}

TEST_CASE("mutated price files through catalog import: never an internal error", "[mutation][import]") {
  mutate_through("mlsize-mutated-skypilot", {k_data / "skypilot-v9/lambda/vms.csv", "vms.csv"}, 80, 3103,
                 [](const fs::path& path) {
                   return run_cli({"catalog", "import", "--from", "skypilot", path.string(), "--provider", "lambda",
                                   "--as-of", "2026-07-09", "--output", "-", "--no-user-catalog"});
                 });
  mutate_through("mlsize-mutated-azure", {k_data / "azure-retail/page-1.json", "page.json"}, 80, 3104,
                 [](const fs::path& path) {
                   return run_cli({"catalog", "import", "--from", "azure-retail", path.string(), "--as-of",
                                   "2026-12-01", "--output", "-", "--no-user-catalog"});
                 });
}

TEST_CASE("mutated catalogues, rules files and config.json: never an internal error", "[mutation]") {
  mutate_through("mlsize-mutated-catalog", {k_source / "examples/my-prices.yaml", "catalog.yaml"}, 120, 3105,
                 [](const fs::path& path) { return run_cli({"catalog", "validate", path.string()}); });
  mutate_through("mlsize-mutated-rules", {k_source / "examples/team-policy.yaml", "rules.yaml"}, 120, 3106,
                 [](const fs::path& path) { return run_cli({"rules", "check", path.string()}); });
  mutate_through("mlsize-mutated-config", {k_source / "examples/qwen3-8b-config.json", "config.json"}, 120, 3107,
                 [](const fs::path& path) {
                   return run_cli({"estimate", "--model-config", path.string(), "--task", "inference", "--device",
                                   "h100", "--no-user-catalog"});
                 });
}
