#include "core/model/config_reader.hpp"

#include "core/support/json_keys.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace mlsize {
namespace {
std::atomic<std::size_t> g_json_documents{0};
}  // namespace

std::size_t json_documents_parsed() {
  return g_json_documents.load();
}

namespace {

// Python's json.dumps writes float('inf') and float('nan') as the bare words Infinity,
// -Infinity and NaN, which JSON lacks and nlohmann refuses; configs saved by transformers
// carry them (e.g. a disabled soft-cap). They become null, a value no dimension takes.
// `shifts` records where the text grew (NaN, 3 characters, becomes null, 4), so that an
// offset into the result maps back to the file.
std::string python_literals_as_null(std::string_view text, std::vector<std::size_t>& shifts) {
  std::string out;
  out.reserve(text.size() + 16);
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    const std::string_view rest = text.substr(i);
    if (rest.starts_with("-Infinity")) {
      out += "null     ";
      i += 8;
    } else if (rest.starts_with("Infinity")) {
      out += "null    ";
      i += 7;
    } else if (rest.starts_with("NaN")) {
      shifts.push_back(out.size());
      out += "null";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

// Refuses a key given twice in one object, naming both places: a config.json whose second
// hidden_size wins plans another model. Python's json.load keeps the last too, so the file
// is most likely a bad merge; the user decides.
void check_duplicate_keys(const ConfigText& source) {
  const std::optional<RepeatedKey> repeated = find_repeated_key(source.text());
  if (!repeated) return;
  source.fail(source.at_offset(repeated->second),
              "duplicate key \"" + repeated->key + "\" (first at line " +
                  std::to_string(source.at_offset(repeated->first).line) + ")",
              "keep one of them: JSON readers keep the last silently, and the two disagree or repeat");
}

}  // namespace

bool is_known_config_key(std::string_view key) {
  // Every key model_config.cpp reads (its dimension keys and aliases).
  static constexpr std::string_view known[] = {"hidden_size",
                                               "n_embd",
                                               "d_model",
                                               "n_embed",
                                               "num_hidden_layers",
                                               "n_layer",
                                               "num_layers",
                                               "num_attention_heads",
                                               "n_head",
                                               "num_heads",
                                               "padded_vocab_size",
                                               "vocab_size",
                                               "intermediate_size",
                                               "n_inner",
                                               "d_ff",
                                               "ffn_hidden_size",
                                               "ffn_dim",
                                               "head_dim",
                                               "d_kv",
                                               "kv_channels",
                                               "num_key_value_heads",
                                               "num_kv_heads",
                                               "n_head_kv",
                                               "multi_query_group_num",
                                               "num_local_experts",
                                               "num_experts",
                                               "n_routed_experts",
                                               "num_experts_per_tok",
                                               "moe_intermediate_size",
                                               "shared_expert_intermediate_size",
                                               "n_shared_experts",
                                               "max_position_embeddings",
                                               "n_positions",
                                               "word_embed_proj_dim",
                                               "num_decoder_layers"};
  return std::find(std::begin(known), std::end(known), key) != std::end(known);
}

Json parse_json(const ConfigText& source) {
  source.check_limits();
  ++g_json_documents;
  std::vector<std::size_t> shifts;
  const std::string text = python_literals_as_null(source.text(), shifts);
  try {
    Json parsed = Json::parse(text);
    check_duplicate_keys(source);
    return parsed;
  } catch (const Json::parse_error& failure) {
    // `byte` counts the characters read, so the offending one is at byte - 1; each NaN
    // before it grew the text by one.
    std::size_t offset = failure.byte > 0 ? failure.byte - 1 : 0;
    offset -= static_cast<std::size_t>(
        std::count_if(shifts.begin(), shifts.end(), [&](std::size_t at) { return at < offset; }));
    std::string message = failure.what();
    const std::size_t detail = message.find(": ", message.find("parse error"));
    if (detail != std::string::npos) message = message.substr(detail + 2);
    source.fail(source.at_offset(offset), "invalid JSON: " + message);
  } catch (const Json::exception& failure) {
    // Number overflow (406) has no offset; point at the number when it can be found.
    std::string message = failure.what();
    const std::size_t detail = message.find("] ");
    if (detail != std::string::npos) message = message.substr(detail + 2);
    const std::size_t open = message.find('\'');
    const std::size_t close = message.rfind('\'');
    SourceLocation where{source.name(), 0, 0, {}};
    if (open != std::string::npos && close > open) {
      const std::size_t at = source.text().find(message.substr(open + 1, close - open - 1));
      if (at != std::string_view::npos) where = source.at_offset(at);
    }
    source.fail(where, "invalid JSON: " + message, "dimensions are positive whole numbers up to 10000000");
  }
}

}  // namespace mlsize
