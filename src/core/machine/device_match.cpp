#include <mlsize/machine/device_match.hpp>

#include <mlsize/support/number_format.hpp>

#include "core/support/text_lines.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace mlsize {

using namespace text;

namespace {

// Words that tell variants of one model apart: an RTX 3090 is not an RTX 3090 Ti, a Quadro RTX
// 6000 not an RTX 6000 Ada, an Apple M3 not an M3 Max, a desktop card not its laptop chip.
const std::set<std::string, std::less<>> k_variant_words{"ti",  "super", "ada",    "xt",     "xtx",  "max",
                                                         "pro", "ultra", "laptop", "mobile", "max-q"};

// Above this relative difference, a reported memory is said to differ from the catalogue's.
constexpr double k_memory_tolerance = 0.05;

// What identifies a device in a name.
struct NameKey {
  std::set<std::string> models;     // tokens with digits: "h100", "4090", "8480+", "mi300x", "m3"
  std::set<std::string> variants;   // k_variant_words found
  std::string form;                 // "pcie", "nvl", or "" (SXM, OAM or not said)
  std::optional<double> memory_gb;  // a size in the name: "80GB"
};

bool has_digit(std::string_view token) {
  return std::any_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool all_digits(std::string_view token) {
  return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "80gb" -> 80; nothing for other tokens.
std::optional<double> size_in_gb(std::string_view token) {
  for (const std::string_view unit : {"gib", "gb"}) {
    if (token.ends_with(unit) && all_digits(token.substr(0, token.size() - unit.size()))) {
      return whole_number(token.substr(0, token.size() - unit.size()));
    }
  }
  return std::nullopt;
}

// A token with digits that names no model: memory kinds (hbm3, gddr6x), clocks (2.20ghz),
// ordinals (4th), small counts (the 96 of "96-Core").
bool is_noise(std::string_view token) {
  for (const std::string_view prefix : {"hbm", "gddr", "lpddr", "ddr"}) {
    if (token.starts_with(prefix)) return true;
  }
  for (const std::string_view suffix : {"ghz", "mhz", "st", "nd", "rd", "th"}) {
    if (token.ends_with(suffix) && all_digits(token.substr(0, token.size() - suffix.size()))) return true;
  }
  return all_digits(token) && token.size() < 3;
}

NameKey key_of(std::string_view name) {
  std::string text = lower(name);
  // An old rocm-smi series, "Arcturus GL-XL [AMD Instinct MI100]": the product is in brackets.
  const std::size_t open = text.find('[');
  const std::size_t close = text.find(']', open == std::string::npos ? 0 : open);
  if (open != std::string::npos && close != std::string::npos) text = text.substr(open + 1, close - open - 1);
  // Trademark signs, then remarks in parentheses, then a CPU's clock ("... CPU @ 2.20GHz").
  for (const std::string_view mark : {"(r)", "(tm)", "(c)"}) {
    for (std::size_t at = text.find(mark); at != std::string::npos; at = text.find(mark)) text.erase(at, mark.size());
  }
  for (std::size_t at = text.find('('); at != std::string::npos; at = text.find('(')) {
    const std::size_t end = text.find(')', at);
    text.erase(at, end == std::string::npos ? std::string::npos : end - at + 1);
  }
  text = text.substr(0, text.find('@'));
  // "max-q" is one word; every other '-' separates.
  for (std::size_t at = text.find("max-q"); at != std::string::npos; at = text.find("max-q", at + 5))
    text[at + 3] = '_';

  NameKey key;
  std::string token;
  const auto flush = [&] {
    std::replace(token.begin(), token.end(), '_', '-');
    if (token.empty()) return;
    if (token == "pcie" || token == "nvl") {
      key.form = token;
    } else if (k_variant_words.contains(token)) {
      key.variants.insert(token);
    } else if (const std::optional<double> gb = size_in_gb(token)) {
      key.memory_gb = gb;
    } else if (has_digit(token) && !is_noise(token) && !token.starts_with("sxm") && token != "oam") {
      key.models.insert(token);
    }
    token.clear();
  };
  for (const char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '_') {
      token += c;
    } else {
      flush();
    }
  }
  flush();
  return key;
}

bool subset(const std::set<std::string>& a, const std::set<std::string>& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

// The same model, named in either direction ("8272cl" is one of 8168/8272CL/8370C).
bool same_model(const NameKey& reported, const NameKey& device) {
  if (reported.models.empty() || device.models.empty()) return false;
  return subset(reported.models, device.models) || subset(device.models, reported.models);
}

bool role_fits(const Device& device, DeviceRole role) {
  return (device.kind == DeviceKind::cpu) == (role == DeviceRole::cpu);
}

std::string normalised(std::string_view text) {
  std::string result;
  for (const char c : lower(trim(text))) {
    if (c == ' ' && (result.empty() || result.back() == ' ')) continue;
    result += c;
  }
  return result;
}

std::string gib_text(double bytes) {
  return format_fixed(bytes / k_gibi, 1) + " GiB";
}

// The note of a device matched with a reported memory.
std::string memory_note(const Device& device, std::optional<Bytes> memory) {
  if (!memory || !device.memory || device.memory->value <= 0) return {};
  if (std::abs(memory->value / device.memory->value - 1.0) <= k_memory_tolerance) return {};
  return "reports " + gib_text(memory->value) + "; the catalogue's " + device.id + " has " +
         gib_text(device.memory->value);
}

}  // namespace

DeviceMatch match_device(const Catalog& catalog, std::string_view reported, std::optional<Bytes> memory,
                         DeviceRole role) {
  DeviceMatch match;
  // A device named as the machine names it: the catalogue's own word, or an overlay's.
  const std::string wanted = normalised(reported);
  for (const Device& device : catalog.devices()) {
    if (!role_fits(device, role)) continue;
    bool named = normalised(device.name) == wanted || device.id == wanted;
    for (const std::string& alias : device.aliases) named = named || alias == wanted;
    if (named) {
      match.device = &device;
      match.note = memory_note(device, memory);
      return match;
    }
  }

  const NameKey key = key_of(reported);
  std::vector<const Device*> candidates;
  for (const Device& device : catalog.devices()) {
    if (!role_fits(device, role)) continue;
    const NameKey theirs = key_of(device.name);
    if (!same_model(key, theirs)) continue;
    if (theirs.variants != key.variants || theirs.form != key.form) {
      match.near.push_back(device.id);
      continue;
    }
    candidates.push_back(&device);
  }
  if (candidates.empty()) {
    match.note = "not in the catalogue";
    return match;
  }
  match.near.clear();
  // Among several (A100 40GB and 80GB), the nearest in memory: the reported one, else the name's.
  std::optional<double> wanted_bytes;
  if (memory) wanted_bytes = memory->value;
  if (!wanted_bytes && key.memory_gb) wanted_bytes = *key.memory_gb * k_gibi;
  const auto distance = [&](const Device* device) {
    if (!wanted_bytes || !device->memory || device->memory->value <= 0) return 0.0;
    return std::abs(std::log(*wanted_bytes / device->memory->value));
  };
  const Device* best = *std::min_element(candidates.begin(), candidates.end(),
                                         [&](const Device* a, const Device* b) { return distance(a) < distance(b); });
  match.device = best;
  match.note = memory_note(*best, memory);
  if (!wanted_bytes && candidates.size() > 1) {
    std::string ids;
    for (const Device* device : candidates) {
      if (!ids.empty()) ids += ", ";
      ids += device->id;
    }
    match.note = "the name fits " + ids + "; without its memory, " + best->id + " is taken";
  }
  return match;
}

}  // namespace mlsize
