// Table schema as the partition model sees it: typed columns, primary key, time index,
// partition columns and the append_mode option. Column types use GreptimeDB's logical types;
// StorageType() maps them onto the value types the model stores (all signed ints -> Int64,
// unsigned -> UInt64, floats -> Double). ConvertToColumnType() converts a parsed literal to a
// column's storage type (the real system converts literals at parse time, ddl.rs).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/partition/value.h"

namespace repartsim::model {

enum class ColumnType {
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat32,
  kFloat64,
  kString,
  kTimestamp
};

ValueType StorageType(ColumnType type);
// GreptimeDB's name of the type: "Boolean", "Int32", "UInt8", "Float64", "String",
// "TimestampMillisecond".
std::string_view ColumnTypeName(ColumnType type);
// True for types whose domain is discrete (integers, booleans, timestamps).
bool IsDiscrete(ColumnType type);
// True when CAST(x AS to) keeps every value of a `from` column unchanged: the same type, a
// wider integer (a signed one only from signed or from narrower unsigned types), or FLOAT to
// DOUBLE.
bool ValuePreservingCast(ColumnType from, ColumnType to);

struct Column {
  std::string name;
  ColumnType type = ColumnType::kInt64;
  bool nullable = true;
};

struct TableSchema {
  std::string name;
  std::vector<Column> columns;
  std::vector<size_t> primary_key;  // column indices
  size_t time_index = 0;            // column index
  std::vector<std::string> partition_columns;
  bool append_mode = false;

  std::optional<size_t> FindColumn(std::string_view name) const;
};

using Row = std::vector<Value>;  // one Value per schema column, in schema order

// Converts `v` to the storage type of `type`, range-checking integers (Int8 .. UInt64) and
// allowing integer -> float and integer -> timestamp. NULL stays NULL. Errors name the type:
// "cannot convert 'x' to Int32", "value 300 out of range for UInt8".
Result<Value> ConvertToColumnType(const Value& v, ColumnType type);

}  // namespace repartsim::model
