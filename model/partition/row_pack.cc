#include "model/partition/row_pack.h"

#include <cstdint>
#include <cstring>

#include "sim/assert.h"

namespace repartsim::model {

namespace {

void PutVarint(uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void PutFixed(uint64_t v, std::string& out) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// Signed integers as zigzag varints: small magnitudes of either sign take one or two bytes.
uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t UnZigZag(uint64_t v) { return static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1)); }

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  uint8_t Byte() {
    REPARTSIM_ASSERT_MSG(at_ < in_.size(), "packed rows end early");
    return static_cast<uint8_t>(in_[at_++]);
  }
  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      REPARTSIM_ASSERT_MSG(shift < 64, "packed rows: varint too long");
      const uint8_t b = Byte();
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
  }
  uint64_t Fixed() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(Byte()) << (8 * i);
    return v;
  }
  std::string_view Bytes(size_t n) {
    REPARTSIM_ASSERT_MSG(n <= in_.size() - at_, "packed rows end early");
    std::string_view out = in_.substr(at_, n);
    at_ += n;
    return out;
  }
  size_t used() const { return at_; }

 private:
  std::string_view in_;
  size_t at_ = 0;
};

}  // namespace

void PackRows(const std::vector<Row>& rows, std::string& out) {
  PutVarint(rows.size(), out);
  for (const Row& row : rows) {
    PutVarint(row.size(), out);
    for (const Value& value : row) {
      out.push_back(static_cast<char>(value.type()));
      switch (value.type()) {
        case ValueType::kNull:
          break;
        case ValueType::kBool:
          out.push_back(value.as_bool() ? 1 : 0);
          break;
        case ValueType::kInt64:
          PutVarint(ZigZag(value.as_int()), out);
          break;
        case ValueType::kUInt64:
          PutVarint(value.as_uint(), out);
          break;
        case ValueType::kDouble: {
          const double d = value.as_double();
          uint64_t bits = 0;
          std::memcpy(&bits, &d, sizeof bits);
          PutFixed(bits, out);
          break;
        }
        case ValueType::kString:
          PutVarint(value.as_string().size(), out);
          out += value.as_string();
          break;
        case ValueType::kTimestamp:
          PutVarint(ZigZag(value.as_timestamp_ms()), out);
          break;
      }
    }
  }
}

std::vector<Row> UnpackRows(std::string_view in, size_t* used) {
  Reader r(in);
  std::vector<Row> rows(r.Varint());
  for (Row& row : rows) {
    row.resize(r.Varint());
    for (Value& value : row) {
      const uint8_t type = r.Byte();
      switch (static_cast<ValueType>(type)) {
        case ValueType::kNull:
          break;
        case ValueType::kBool:
          value = Value::Bool(r.Byte() != 0);
          break;
        case ValueType::kInt64:
          value = Value::Int(UnZigZag(r.Varint()));
          break;
        case ValueType::kUInt64:
          value = Value::UInt(r.Varint());
          break;
        case ValueType::kDouble: {
          const uint64_t bits = r.Fixed();
          double d = 0;
          std::memcpy(&d, &bits, sizeof d);
          value = Value::Double(d);
          break;
        }
        case ValueType::kString:
          value = Value::String(std::string(r.Bytes(r.Varint())));
          break;
        case ValueType::kTimestamp:
          value = Value::Timestamp(UnZigZag(r.Varint()));
          break;
        default:
          REPARTSIM_ASSERT_MSG(false, "packed rows: unknown value type");
      }
    }
  }
  if (used != nullptr) *used = r.used();
  return rows;
}

}  // namespace repartsim::model
