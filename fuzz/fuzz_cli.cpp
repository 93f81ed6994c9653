// Fuzzes the command line: the input is split at newlines into arguments. Options that
// touch the file system (--output, --catalog, --model-config) are dropped with their
// value so the fuzzer cannot write or read arbitrary files.
#include "cli/app.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::FILE* null_stream() {
  static std::FILE* stream = std::fopen("/dev/null", "w");
  return stream;
}

bool touches_files(std::string_view arg) {
  for (std::string_view option : {"--output", "--catalog", "--model-config"}) {
    if (arg.substr(0, option.size()) == option) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> args{"mlsize"};
  std::size_t start = 0;
  bool skip_next = false;
  while (start <= text.size() && args.size() < 64) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string arg(text.substr(start, end - start));
    if (skip_next) {
      skip_next = false;
    } else if (touches_files(arg)) {
      skip_next = arg.find('=') == std::string::npos;
    } else {
      args.push_back(arg);
    }
    start = end + 1;
  }
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  mlsize::cli::run(static_cast<int>(argv.size()), argv.data(), null_stream(), null_stream());
  return 0;
}
