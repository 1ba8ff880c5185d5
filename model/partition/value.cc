#include "model/partition/value.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace repartsim::model {

std::string_view ValueTypeName(ValueType type) {
  switch (type) {
    case ValueType::kNull:
      return "Null";
    case ValueType::kBool:
      return "Boolean";
    case ValueType::kInt64:
      return "Int64";
    case ValueType::kUInt64:
      return "UInt64";
    case ValueType::kDouble:
      return "Float64";
    case ValueType::kString:
      return "String";
    case ValueType::kTimestamp:
      return "TimestampMillisecond";
  }
  REPARTSIM_UNREACHABLE();
}

Value Value::Bool(bool v) {
  Value r;
  r.type_ = ValueType::kBool;
  r.bits_ = v ? 1 : 0;
  return r;
}
Value Value::Int(int64_t v) {
  Value r;
  r.type_ = ValueType::kInt64;
  r.bits_ = static_cast<uint64_t>(v);
  return r;
}
Value Value::UInt(uint64_t v) {
  Value r;
  r.type_ = ValueType::kUInt64;
  r.bits_ = v;
  return r;
}
Value Value::Double(double v) {
  Value r;
  r.type_ = ValueType::kDouble;
  if (v == 0.0) v = 0.0;  // fold -0.0 so equality and hashing agree with ordering
  std::memcpy(&r.bits_, &v, sizeof v);
  return r;
}
Value Value::String(std::string v) {
  Value r;
  r.type_ = ValueType::kString;
  r.str_ = std::move(v);
  return r;
}
Value Value::Timestamp(int64_t ms) {
  Value r;
  r.type_ = ValueType::kTimestamp;
  r.bits_ = static_cast<uint64_t>(ms);
  return r;
}

bool Value::as_bool() const {
  REPARTSIM_ASSERT(type_ == ValueType::kBool);
  return bits_ != 0;
}
int64_t Value::as_int() const {
  REPARTSIM_ASSERT(type_ == ValueType::kInt64);
  return static_cast<int64_t>(bits_);
}
uint64_t Value::as_uint() const {
  REPARTSIM_ASSERT(type_ == ValueType::kUInt64);
  return bits_;
}
double Value::as_double() const {
  REPARTSIM_ASSERT(type_ == ValueType::kDouble);
  double v;
  std::memcpy(&v, &bits_, sizeof v);
  return v;
}
const std::string& Value::as_string() const {
  REPARTSIM_ASSERT(type_ == ValueType::kString);
  return str_;
}
int64_t Value::as_timestamp_ms() const {
  REPARTSIM_ASSERT(type_ == ValueType::kTimestamp);
  return static_cast<int64_t>(bits_);
}

std::string FormatDouble(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  REPARTSIM_ASSERT(res.ec == std::errc());
  return std::string(buf, res.ptr);
}

std::string Value::ToSql() const {
  switch (type_) {
    case ValueType::kNull:
      return "NULL";
    case ValueType::kBool:
      return bits_ ? "true" : "false";
    case ValueType::kInt64:
      return std::to_string(as_int());
    case ValueType::kUInt64:
      return std::to_string(bits_);
    case ValueType::kDouble:
      return FormatDouble(as_double());
    case ValueType::kTimestamp:
      return std::to_string(as_timestamp_ms());
    case ValueType::kString: {
      std::string out = "'";
      for (char c : str_) {
        if (c == '\'') out += '\'';
        out += c;
      }
      out += '\'';
      return out;
    }
  }
  REPARTSIM_UNREACHABLE();
}

std::string Value::ToDisplay() const {
  if (type_ == ValueType::kString) return str_;
  return ToSql();
}

std::string Value::ToDebug() const {
  if (type_ == ValueType::kNull) return "Null";
  std::string payload = type_ == ValueType::kString ? "\"" + str_ + "\"" : ToSql();
  return std::string(ValueTypeName(type_)) + "(" + payload + ")";
}

bool operator==(const Value& a, const Value& b) {
  if (a.type_ != b.type_) return false;
  if (a.type_ == ValueType::kString) return a.str_ == b.str_;
  return a.bits_ == b.bits_;
}

namespace {

template <class T>
int Cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int CmpDouble(double a, double b) {
  bool na = std::isnan(a);
  bool nb = std::isnan(b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return Cmp(a, b);
}

}  // namespace

int CompareSameType(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return Cmp(!a.is_null(), !b.is_null());
  REPARTSIM_ASSERT(a.type() == b.type());
  switch (a.type()) {
    case ValueType::kBool:
      return Cmp(a.as_bool(), b.as_bool());
    case ValueType::kInt64:
      return Cmp(a.as_int(), b.as_int());
    case ValueType::kUInt64:
      return Cmp(a.as_uint(), b.as_uint());
    case ValueType::kDouble:
      return CmpDouble(a.as_double(), b.as_double());
    case ValueType::kString:
      return Cmp(a.as_string(), b.as_string());
    case ValueType::kTimestamp:
      return Cmp(a.as_timestamp_ms(), b.as_timestamp_ms());
    case ValueType::kNull:
      break;
  }
  REPARTSIM_UNREACHABLE();
}

Result<int> CompareValues(const Value& a, const Value& b) {
  if (!a.is_null() && !b.is_null() && a.type() != b.type()) {
    return sim::MakeError({}, "cannot compare " + std::string(ValueTypeName(a.type())) + " with " +
                                  std::string(ValueTypeName(b.type())));
  }
  return CompareSameType(a, b);
}

int TotalOrder(const Value& a, const Value& b) {
  if (a.type() != b.type()) return Cmp(static_cast<int>(a.type()), static_cast<int>(b.type()));
  return CompareSameType(a, b);
}

}  // namespace repartsim::model
