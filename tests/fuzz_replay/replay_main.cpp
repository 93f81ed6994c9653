// Replays a fuzz target's inputs without libFuzzer: each file named on the command line (or
// each file of a folder named) is given to LLVMFuzzerTestOneInput once. Built with the
// project's compiler, so that CI runs the seeds and the regressions the fuzzers found in
// every suite, the sanitizers' included (docs/reliability.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

int replay(const std::filesystem::path& file) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(file, error);
  std::ifstream in(file, std::ios::binary);
  std::vector<char> bytes(error ? 0 : static_cast<std::size_t>(size));
  if (error || !in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    std::fprintf(stderr, "cannot read %s\n", file.c_str());
    return 1;
  }
  std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(data.data(), data.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int replayed = 0;
  int failed = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path)) {
        if (!entry.is_regular_file() || entry.path().filename() == "README.md") continue;
        failed += replay(entry.path());
        ++replayed;
      }
    } else {
      failed += replay(path);
      ++replayed;
    }
  }
  std::printf("replayed %d inputs\n", replayed);
  return failed == 0 && replayed > 0 ? 0 : 1;
}
