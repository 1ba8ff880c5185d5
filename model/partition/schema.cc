#include "model/partition/schema.h"

#include <limits>

namespace repartsim::model {

ValueType StorageType(ColumnType type) {
  switch (type) {
    case ColumnType::kBool:
      return ValueType::kBool;
    case ColumnType::kInt8:
    case ColumnType::kInt16:
    case ColumnType::kInt32:
    case ColumnType::kInt64:
      return ValueType::kInt64;
    case ColumnType::kUInt8:
    case ColumnType::kUInt16:
    case ColumnType::kUInt32:
    case ColumnType::kUInt64:
      return ValueType::kUInt64;
    case ColumnType::kFloat32:
    case ColumnType::kFloat64:
      return ValueType::kDouble;
    case ColumnType::kString:
      return ValueType::kString;
    case ColumnType::kTimestamp:
      return ValueType::kTimestamp;
  }
  REPARTSIM_UNREACHABLE();
}

std::string_view ColumnTypeName(ColumnType type) {
  switch (type) {
    case ColumnType::kBool:
      return "Boolean";
    case ColumnType::kInt8:
      return "Int8";
    case ColumnType::kInt16:
      return "Int16";
    case ColumnType::kInt32:
      return "Int32";
    case ColumnType::kInt64:
      return "Int64";
    case ColumnType::kUInt8:
      return "UInt8";
    case ColumnType::kUInt16:
      return "UInt16";
    case ColumnType::kUInt32:
      return "UInt32";
    case ColumnType::kUInt64:
      return "UInt64";
    case ColumnType::kFloat32:
      return "Float32";
    case ColumnType::kFloat64:
      return "Float64";
    case ColumnType::kString:
      return "String";
    case ColumnType::kTimestamp:
      return "TimestampMillisecond";
  }
  REPARTSIM_UNREACHABLE();
}

bool IsDiscrete(ColumnType type) {
  ValueType st = StorageType(type);
  return st == ValueType::kBool || st == ValueType::kInt64 || st == ValueType::kUInt64 ||
         st == ValueType::kTimestamp;
}

namespace {

// Bits and signedness of an integer type; false for the others.
bool IntegerShape(ColumnType t, int& bits, bool& is_signed) {
  switch (t) {
    case ColumnType::kInt8:
    case ColumnType::kUInt8:
      bits = 8;
      break;
    case ColumnType::kInt16:
    case ColumnType::kUInt16:
      bits = 16;
      break;
    case ColumnType::kInt32:
    case ColumnType::kUInt32:
      bits = 32;
      break;
    case ColumnType::kInt64:
    case ColumnType::kUInt64:
      bits = 64;
      break;
    default:
      return false;
  }
  is_signed = t == ColumnType::kInt8 || t == ColumnType::kInt16 || t == ColumnType::kInt32 ||
              t == ColumnType::kInt64;
  return true;
}

}  // namespace

bool ValuePreservingCast(ColumnType from, ColumnType to) {
  if (from == to) return true;
  if (from == ColumnType::kFloat32 && to == ColumnType::kFloat64) return true;
  int from_bits = 0;
  int to_bits = 0;
  bool from_signed = false;
  bool to_signed = false;
  if (!IntegerShape(from, from_bits, from_signed) || !IntegerShape(to, to_bits, to_signed)) {
    return false;
  }
  if (from_signed == to_signed) return to_bits >= from_bits;
  return !from_signed && to_bits > from_bits;  // unsigned into a wider signed type
}

std::optional<size_t> TableSchema::FindColumn(std::string_view name) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == name) return i;
  }
  return std::nullopt;
}

namespace {

struct IntRange {
  __int128 min;
  __int128 max;
};

IntRange RangeOf(ColumnType type) {
  switch (type) {
    case ColumnType::kInt8:
      return {-128, 127};
    case ColumnType::kInt16:
      return {-32768, 32767};
    case ColumnType::kInt32:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case ColumnType::kUInt8:
      return {0, 255};
    case ColumnType::kUInt16:
      return {0, 65535};
    case ColumnType::kUInt32:
      return {0, std::numeric_limits<uint32_t>::max()};
    case ColumnType::kUInt64:
      return {0, std::numeric_limits<uint64_t>::max()};
    default:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

sim::Error CannotConvert(const Value& v, ColumnType type) {
  return sim::MakeError({},
                        "cannot convert " + v.ToSql() + " to " + std::string(ColumnTypeName(type)));
}

Result<Value> ConvertInteger(__int128 x, const Value& v, ColumnType type) {
  ValueType st = StorageType(type);
  if (st == ValueType::kDouble) return Value::Double(static_cast<double>(x));
  if (st == ValueType::kTimestamp) {
    if (x < std::numeric_limits<int64_t>::min() || x > std::numeric_limits<int64_t>::max()) {
      return CannotConvert(v, type);
    }
    return Value::Timestamp(static_cast<int64_t>(x));
  }
  if (st != ValueType::kInt64 && st != ValueType::kUInt64) return CannotConvert(v, type);
  IntRange r = RangeOf(type);
  if (x < r.min || x > r.max) {
    return sim::MakeError(
        {}, "value " + v.ToSql() + " out of range for " + std::string(ColumnTypeName(type)));
  }
  if (st == ValueType::kUInt64) return Value::UInt(static_cast<uint64_t>(x));
  return Value::Int(static_cast<int64_t>(x));
}

}  // namespace

Result<Value> ConvertToColumnType(const Value& v, ColumnType type) {
  ValueType st = StorageType(type);
  switch (v.type()) {
    case ValueType::kNull:
      return v;
    case ValueType::kInt64:
      return ConvertInteger(v.as_int(), v, type);
    case ValueType::kUInt64:
      return ConvertInteger(v.as_uint(), v, type);
    case ValueType::kTimestamp:
      return ConvertInteger(v.as_timestamp_ms(), v, type);
    case ValueType::kDouble:
      if (st == ValueType::kDouble) return v;
      return CannotConvert(v, type);
    case ValueType::kBool:
    case ValueType::kString:
      if (st == v.type()) return v;
      return CannotConvert(v, type);
  }
  REPARTSIM_UNREACHABLE();
}

}  // namespace repartsim::model
