// Fuzzes `calibrate`'s readers: the first byte picks the measurement (`--measured`: an
// nvidia-smi CSV log or the JSON of docs/cli.md#calibrate) or a calibration file
// (`--calibration`, the YAML calibrate writes); the rest is the file. Each either parses or
// throws mlsize::Error naming the file and line: anything else (a std exception, a crash) is a
// finding.
#include <mlsize/estimate/calibration.hpp>
#include <mlsize/support/error.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    if (data[0] % 2 == 0) {
      (void)mlsize::parse_measurement(text, "measured.log");
    } else {
      (void)mlsize::parse_calibration(text, "calibration.yaml");
    }
  } catch (const mlsize::Error&) {
    return 0;
  }
  return 0;
}
