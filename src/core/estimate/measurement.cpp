// Reading what a real run measured: an nvidia-smi CSV log or a small JSON of PyTorch's
// figures (docs/cli.md#calibrate).

#include <mlsize/estimate/calibration.hpp>
#include <mlsize/support/date.hpp>
#include <mlsize/support/error.hpp>
#include <mlsize/support/number_format.hpp>
#include <mlsize/support/text_distance.hpp>

#include "core/model/config_reader.hpp"
#include "core/support/text_lines.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace mlsize {
namespace {

constexpr double k_mib = 1024.0 * 1024.0;  // nvidia-smi's MiB

// "2026/11/29 21:51:03.120" (nvidia-smi) or "2026-11-29 ..." as YYYY-MM-DD; empty when neither.
std::string date_of(std::string_view timestamp) {
  if (timestamp.size() < 10) return {};
  std::string date(timestamp.substr(0, 10));
  for (const std::size_t i : {4UL, 7UL}) {
    if (date[i] != '/' && date[i] != '-') return {};
    date[i] = '-';
  }
  // A real day only (support/date's one check): 2026-02-30 or 2026-13-45 would be written
  // into an overlay that no later --calibration could load.
  return is_iso_date(date) ? date : std::string();
}

struct Field {
  std::string_view text;  // trimmed
  std::size_t offset;     // in the whole text, for errors
};

std::vector<Field> split_csv(std::string_view line, std::size_t line_offset) {
  std::vector<Field> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    const std::string_view raw =
        line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const std::size_t lead = raw.find_first_not_of(" \t");
    fields.push_back({text::trim(raw), line_offset + start + (lead == std::string_view::npos ? 0 : lead)});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return fields;
}

// nvidia-smi --query-gpu=timestamp,memory.used,utilization.gpu --format=csv -l 1: a header
// naming each column ("memory.used [MiB]"), then one line per GPU per sample, "12345 MiB"
// (or "12345" with nounits). The GPUs of one sample share its timestamp and come in index
// order; an index or pci.bus_id column names them instead.
Measurement parse_nvidia_smi(std::string_view text, const ConfigText& source) {
  Measurement m;
  m.format = MeasurementFormat::nvidia_smi;
  std::size_t at = 0;
  std::vector<std::string> header;
  int used_column = -1;
  int time_column = -1;
  int gpu_column = -1;
  std::map<std::string, double> peaks;  // by GPU
  std::string last_time;
  int position = 0;  // of the line within its sample
  const auto is_gpu_key = [](std::string_view name) { return name == "index" || name == "pci.bus_id"; };
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    const std::size_t line_offset = at;
    at = end + 1;
    if (text::trim(line).empty()) continue;
    const std::vector<Field> fields = split_csv(line, line_offset);
    if (header.empty() || fields.front().text == "timestamp" || fields.front().text == header.front()) {
      // The header, once at the top (and again where nvidia-smi was restarted into the same file).
      std::vector<std::string> names;
      for (const Field& f : fields) names.emplace_back(f.text.substr(0, f.text.find(" [")));
      if (!header.empty() && names != header) {
        source.fail(source.at_offset(line_offset), "the nvidia-smi log changes its columns",
                    "log one query into one file");
      }
      header = names;
      for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == "memory.used") used_column = static_cast<int>(i);
        if (names[i] == "timestamp") time_column = static_cast<int>(i);
        if (is_gpu_key(names[i])) gpu_column = static_cast<int>(i);
      }
      if (used_column < 0) {
        source.fail(source.at_offset(line_offset), "the nvidia-smi log has no memory.used column",
                    "log with nvidia-smi --query-gpu=timestamp,memory.used,utilization.gpu --format=csv -l 1");
      }
      continue;
    }
    if (fields.size() != header.size()) {
      source.fail(
          source.at_offset(line_offset),
          "this line has " + std::to_string(fields.size()) + " fields, the header " + std::to_string(header.size()),
          "a line per GPU per sample, as nvidia-smi --format=csv writes them");
    }
    std::string gpu;
    if (gpu_column >= 0) {
      gpu = std::string(fields[static_cast<std::size_t>(gpu_column)].text);
    } else {
      const std::string time = time_column >= 0 ? std::string(fields[static_cast<std::size_t>(time_column)].text) : "";
      position = time == last_time && time_column >= 0 ? position + 1 : 0;
      last_time = time;
      gpu = std::to_string(position);
    }
    if (time_column >= 0) {
      const Field& time = fields[static_cast<std::size_t>(time_column)];
      const std::string date = date_of(time.text);
      if (date.empty()) {
        source.fail(source.at_offset(time.offset), "not an nvidia-smi timestamp: " + in_quotes(time.text),
                    "YYYY/MM/DD hh:mm:ss.mmm, as nvidia-smi writes it");
      }
      m.date = date;
    }
    const Field& used = fields[static_cast<std::size_t>(used_column)];
    ++m.samples;
    if (used.text.starts_with("[")) continue;  // [N/A], [Not Supported]: no figure in this sample
    std::string_view number = used.text;
    if (number.ends_with("MiB")) number = text::trim(number.substr(0, number.size() - 3));
    const std::string digits(number);
    char* stop = nullptr;
    const double mib = std::strtod(digits.c_str(), &stop);
    if (digits.empty() || stop != digits.c_str() + digits.size() || !std::isfinite(mib) || mib < 0 || mib > 1e9) {
      source.fail(source.at_offset(used.offset), "not a memory.used figure: " + in_quotes(used.text),
                  "MiB, as nvidia-smi writes it: \"81559 MiB\"");
    }
    double& peak = peaks[gpu];
    peak = std::max(peak, mib * k_mib);
  }
  if (peaks.empty()) {
    source.fail(source.at_offset(text.size()), "the nvidia-smi log has no samples",
                "let nvidia-smi -l 1 run for the whole training step or more");
  }
  for (const auto& [gpu, peak] : peaks) {
    m.gpus.push_back(gpu);
    m.peak_used.push_back(Bytes(peak));
  }
  m.devices = static_cast<int>(peaks.size());
  return m;
}

constexpr std::array<std::string_view, 9> k_json_keys{"device",
                                                      "devices",
                                                      "max_memory_allocated_bytes",
                                                      "max_memory_reserved_bytes",
                                                      "step_time_s",
                                                      "tokens_per_step",
                                                      "date",
                                                      "source",
                                                      "notes"};

Measurement parse_torch_json(const ConfigText& source) {
  const Json json = parse_json(source);
  if (!json.is_object()) source.fail(source.at_offset(0), "the measured JSON must be an object", "{\"device\": ...}");
  Measurement m;
  m.format = MeasurementFormat::torch_json;
  for (const auto& [key, value] : json.items()) {
    if (std::find(k_json_keys.begin(), k_json_keys.end(), key) == k_json_keys.end()) {
      std::string hint = did_you_mean(key, k_json_keys);
      if (hint.empty()) hint = "accepted keys: " + join_names(k_json_keys);
      source.fail(source.at_key(key), "unknown key " + in_quotes(key) + " in the measured JSON", hint);
    }
  }
  const auto number = [&](std::string_view key, double low, double high) -> std::optional<double> {
    if (!json.contains(key)) return std::nullopt;
    const Json& value = json[std::string(key)];
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < low ||
        value.get<double>() > high) {
      source.fail(source.at_key(key),
                  in_quotes(key) + " must be a number from " + format_general(low) + " to " + format_general(high));
    }
    return value.get<double>();
  };
  const auto text = [&](std::string_view key) -> std::optional<std::string> {
    if (!json.contains(key)) return std::nullopt;
    const Json& value = json[std::string(key)];
    if (!value.is_string() || value.get<std::string>().empty()) {
      source.fail(source.at_key(key), in_quotes(key) + " must be a non-empty text");
    }
    return value.get<std::string>();
  };
  m.device = text("device");
  if (const std::optional<double> devices = number("devices", 1, 1e6)) {
    if (*devices != std::floor(*devices)) source.fail(source.at_key("devices"), "\"devices\" must be a whole number");
    m.devices = static_cast<int>(*devices);
  }
  if (const auto bytes = number("max_memory_allocated_bytes", 1, 1e15)) m.max_allocated = Bytes(*bytes);
  if (const auto bytes = number("max_memory_reserved_bytes", 1, 1e15)) m.max_reserved = Bytes(*bytes);
  if (m.max_allocated && m.max_reserved && *m.max_reserved < *m.max_allocated) {
    source.fail(source.at_key("max_memory_reserved_bytes"),
                "max_memory_reserved_bytes is below max_memory_allocated_bytes",
                "PyTorch's caching allocator reserves at least what it allocates");
  }
  m.step_time_s = number("step_time_s", 1e-9, 1e9);
  m.tokens_per_step = number("tokens_per_step", 1, 1e15);
  if (const std::optional<std::string> date = text("date")) {
    m.date = date_of(*date);
    if (m.date.empty()) source.fail(source.at_key("date"), "\"date\" is not a date", "YYYY-MM-DD, e.g. 2026-11-29");
  }
  text("source");
  text("notes");
  if (!m.max_allocated && !m.max_reserved && !m.step_time_s) {
    source.fail(source.at_offset(0), "the measured JSON has nothing to compare",
                "give max_memory_allocated_bytes, max_memory_reserved_bytes or step_time_s");
  }
  return m;
}

}  // namespace

Measurement parse_measurement(std::string_view text, const std::string& name) {
  // A UTF-8 byte-order mark, as Windows editors and PowerShell's redirections write one
  // (issue 46: such a file was "not an nvidia-smi CSV log nor a measured JSON").
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  const ConfigText source(text, name);
  std::size_t first = 0;
  while (first < text.size() &&
         (text[first] == ' ' || text[first] == '\n' || text[first] == '\r' || text[first] == '\t')) {
    ++first;
  }
  if (first < text.size() && text[first] == '{') return parse_torch_json(source);
  if (text.substr(first).starts_with("timestamp") || text.substr(first).starts_with("index") ||
      text.substr(first).starts_with("memory.used")) {
    return parse_nvidia_smi(text, source);
  }
  source.fail(source.at_offset(first), "not an nvidia-smi CSV log nor a measured JSON",
              "nvidia-smi --query-gpu=timestamp,memory.used,utilization.gpu --format=csv -l 1, or a JSON "
              "object (docs/cli.md#calibrate)");
}

}  // namespace mlsize
