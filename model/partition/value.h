// Typed partition values: NULL, bool, int64, uint64, double, string, timestamp (ms).
// Comparison follows the real system's row path: NULL sorts before every value, values of
// the same type compare naturally, and comparing two different non-null types is a user
// error (a Result), never a crash. Doubles order totally (NaN last, -0.0 == 0.0).
// TotalOrder() is a total order over all values for sorting rows (type rank first).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "sim/result.h"

namespace repartsim::model {

template <class T>
using Result = sim::Result<T>;

enum class ValueType { kNull, kBool, kInt64, kUInt64, kDouble, kString, kTimestamp };

// "Null", "Boolean", "Int64", "UInt64", "Float64", "String", "TimestampMillisecond".
std::string_view ValueTypeName(ValueType type);

class Value {
 public:
  Value() = default;  // NULL
  static Value Null() { return Value(); }
  static Value Bool(bool v);
  static Value Int(int64_t v);
  static Value UInt(uint64_t v);
  static Value Double(double v);
  static Value String(std::string v);
  static Value Timestamp(int64_t ms);

  ValueType type() const { return type_; }
  bool is_null() const { return type_ == ValueType::kNull; }
  // REQUIRES: type() matches the accessor.
  bool as_bool() const;
  int64_t as_int() const;
  uint64_t as_uint() const;
  double as_double() const;
  const std::string& as_string() const;
  int64_t as_timestamp_ms() const;

  // SQL literal: NULL, true, 42, 'it''s', 1.5; timestamps as integer ms.
  std::string ToSql() const;
  // The real system's Display form used in checker messages: strings unquoted.
  std::string ToDisplay() const;
  // Debug-like form used in "Duplicate expr" messages, e.g. Int64(10), String("x").
  std::string ToDebug() const;

  // Stable hash input: a type tag then the payload (hasher needs Add(uint64_t) and
  // Add(std::string_view), e.g. sim::Hasher).
  template <class H>
  void Hash(H& hasher) const {
    hasher.Add(static_cast<uint64_t>(type_));
    if (type_ == ValueType::kString) {
      hasher.Add(std::string_view(str_));
    } else {
      hasher.Add(bits_);
    }
  }

  friend bool operator==(const Value& a, const Value& b);
  friend bool operator!=(const Value& a, const Value& b) { return !(a == b); }

 private:
  ValueType type_ = ValueType::kNull;
  uint64_t bits_ = 0;  // bool/int/uint/timestamp payload, or the double's bit pattern
  std::string str_;
};

// Structural equality: same type and payload; NULL == NULL (identity use, not SQL).
bool operator==(const Value& a, const Value& b);

// -1/0/1 with NULL first. Different non-null types -> error
// "cannot compare Int64 with String".
Result<int> CompareValues(const Value& a, const Value& b);

// Total order for sorting: type rank (ValueType order) first, then the value.
int TotalOrder(const Value& a, const Value& b);

// Same-type comparison. REQUIRES: a.type() == b.type() or one of them is NULL.
int CompareSameType(const Value& a, const Value& b);

// Shortest round-trip decimal text of a double ("1.5", "10", "1e+300", "NaN", "inf").
std::string FormatDouble(double v);

}  // namespace repartsim::model
