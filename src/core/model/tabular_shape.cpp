#include <mlsize/model/tabular_shape.hpp>

#include <mlsize/support/error.hpp>

#include <cstdint>
#include <tuple>
#include <utility>

namespace mlsize {

int csv_field_count(std::string_view line, char delimiter) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.empty()) return 0;
  int fields = 1;
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') {
      quoted = !quoted;  // a doubled quote toggles twice
    } else if (c == delimiter && !quoted) {
      ++fields;
    }
  }
  return fields;
}

char csv_delimiter(std::string_view header) {
  return header.find('\t') != std::string_view::npos && header.find(',') == std::string_view::npos ? '\t' : ',';
}

bool parquet_magic(std::string_view four_bytes) {
  return four_bytes == "PAR1";
}

std::uint32_t parquet_metadata_length(std::string_view last_eight_bytes) {
  std::uint32_t length = 0;
  for (std::size_t i = 4; i-- > 0;) length = (length << 8) | static_cast<unsigned char>(last_eight_bytes[i]);
  return length;
}

namespace {

// Thrift's compact protocol (thrift/doc/specs/thrift-compact-protocol.md): field headers of a
// 4-bit id delta and a 4-bit type, zigzag varints, length-prefixed binaries, sized lists.
enum CompactType : int {
  stop = 0,
  bool_true = 1,
  bool_false = 2,
  i8 = 3,
  i16 = 4,
  i32 = 5,
  i64 = 6,
  double_type = 7,
  binary_type = 8,
  list = 9,
  set = 10,
  map = 11,
  structure = 12
};

class CompactReader {
 public:
  explicit CompactReader(std::string_view bytes) : m_bytes(bytes) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorKind::input,
                "the Parquet footer cannot be read: " + what + " at byte " + std::to_string(m_at) + " of its " +
                    std::to_string(m_bytes.size()) + "-byte metadata",
                "is it a Parquet file, whole? Otherwise give --rows and --features");
  }
  std::uint8_t byte() {
    if (m_at >= m_bytes.size()) fail("it ends early");
    return static_cast<std::uint8_t>(m_bytes[m_at++]);
  }
  std::uint64_t varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const std::uint8_t b = byte();
      value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return value;
    }
    fail("a varint is over 10 bytes");
  }
  std::int64_t zigzag() {
    const std::uint64_t v = varint();
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  }
  std::string_view binary() {
    const std::uint64_t length = varint();
    if (length > m_bytes.size() - m_at) fail("a string runs past the end");
    const std::string_view text = m_bytes.substr(m_at, length);
    m_at += length;
    return text;
  }
  // The next field of a struct: its id and type, or type stop. Thrift's field ids are i16:
  // one outside that range is refused (a run of deltas or a long varint must not overflow).
  std::pair<int, int> field(int& last_id) {
    const std::uint8_t header = byte();
    const int type = header & 0x0f;
    if (type == stop) return {0, stop};
    const int delta = header >> 4;
    const std::int64_t id = delta != 0 ? std::int64_t{last_id} + delta : zigzag();
    if (id < INT16_MIN || id > INT16_MAX) fail("a field id outside Thrift's 16 bits");
    last_id = static_cast<int>(id);
    return {last_id, type};
  }
  // A list's element type and size. Every element takes at least one byte (a container's
  // booleans are bytes, an empty struct its stop byte), so a count above the bytes left is a
  // lie: refusing it bounds every loop below by the metadata's length.
  std::pair<int, std::uint64_t> list_header() {
    const std::uint8_t header = byte();
    std::uint64_t size = header >> 4;
    if (size == 15) size = varint();
    if (size > left()) fail("a list claims more elements than there are bytes left");
    return {header & 0x0f, size};
  }
  // A map's size and its key and value types: each entry takes at least two bytes.
  std::pair<std::uint64_t, std::uint8_t> map_header() {
    const std::uint64_t size = varint();
    if (size == 0) return {0, 0};
    const std::uint8_t types = byte();
    if (size > left() / 2) fail("a map claims more entries than there are bytes left");
    return {size, types};
  }
  void skip(int type, int depth = 0) {
    if (depth > 64) fail("structures nest over 64 deep");
    switch (type) {
      case bool_true:
      case bool_false: return;  // the value is in the type (a list's booleans are bytes: i8)
      case i8: byte(); return;
      case i16:
      case i32:
      case i64: varint(); return;
      case double_type:
        for (int i = 0; i < 8; ++i) byte();
        return;
      case binary_type: binary(); return;
      case list:
      case set: {
        const auto [element, size] = list_header();
        for (std::uint64_t i = 0; i < size; ++i) skip(in_container(element), depth + 1);
        return;
      }
      case map: {
        const auto [size, types] = map_header();
        for (std::uint64_t i = 0; i < size; ++i) {
          skip(in_container(types >> 4), depth + 1);
          skip(in_container(types & 0x0f), depth + 1);
        }
        return;
      }
      case structure: {
        int id = 0;
        for (auto [field_id, field_type] = field(id); field_type != stop; std::tie(field_id, field_type) = field(id)) {
          skip(field_type, depth + 1);
        }
        return;
      }
      default: fail("an unknown field type " + std::to_string(type));
    }
  }

 private:
  std::size_t left() const { return m_bytes.size() - m_at; }
  // Inside a list, set or map a boolean is a byte of its own (the compact protocol's spec,
  // "Boolean encoding"): read as i8 there, so no element is free.
  static int in_container(int type) { return type == bool_true || type == bool_false ? i8 : type; }

  std::string_view m_bytes;
  std::size_t m_at = 0;
};

// parquet.thrift's physical types: BOOLEAN 0, INT32 1, INT64 2, INT96 3, FLOAT 4, DOUBLE 5,
// BYTE_ARRAY 6, FIXED_LEN_BYTE_ARRAY 7.
bool numeric_type(std::int64_t type) {
  return type == 0 || type == 1 || type == 2 || type == 4 || type == 5;
}

// One SchemaElement: type (1), name (4), num_children (5).
struct SchemaElement {
  std::int64_t type = -1;
  std::int64_t children = 0;
};

SchemaElement schema_element(CompactReader& in) {
  SchemaElement element;
  int id = 0;
  for (auto [field_id, type] = in.field(id); type != stop; std::tie(field_id, type) = in.field(id)) {
    if (field_id == 1 && type == i32) {
      element.type = in.zigzag();
    } else if (field_id == 5 && type == i32) {
      element.children = in.zigzag();
    } else {
      in.skip(type);
    }
  }
  return element;
}

}  // namespace

ParquetShape parquet_shape(std::string_view metadata) {
  CompactReader in(metadata);
  ParquetShape shape;
  bool has_rows = false;
  bool has_schema = false;
  int id = 0;
  // FileMetaData: version (1), schema (2: list<SchemaElement>), num_rows (3: i64), ...
  for (auto [field_id, type] = in.field(id); type != stop; std::tie(field_id, type) = in.field(id)) {
    if (field_id == 3 && type == i64) {
      shape.rows = in.zigzag();
      has_rows = true;
    } else if (field_id == 2 && type == list) {
      const auto [element_type, size] = in.list_header();
      if (element_type != structure) in.fail("the schema is not a list of structs");
      for (std::uint64_t i = 0; i < size; ++i) {
        const SchemaElement element = schema_element(in);
        if (i == 0 || element.children > 0) continue;  // the root and groups hold no values
        ++shape.columns;
        if (numeric_type(element.type)) ++shape.numeric_columns;
      }
      has_schema = true;
    } else {
      in.skip(type);
    }
  }
  if (!has_rows || !has_schema) in.fail(has_rows ? "it has no schema" : "it has no row count");
  if (shape.rows < 0) in.fail("its row count is negative");
  return shape;
}

}  // namespace mlsize
