// Shared fixture for tests/checker/check: table t(host STRING tag, ts TIMESTAMP time index,
// v INT64 field) with primary key (host) and partition column host.
#pragma once

#include <cstdint>

#include "model/partition/schema.h"

namespace repartsim::check::testing_schema {

inline model::TableSchema Schema(bool append_mode = false) {
  model::TableSchema schema;
  schema.name = "t";
  schema.columns = {{"host", model::ColumnType::kString, true},
                    {"ts", model::ColumnType::kTimestamp, false},
                    {"v", model::ColumnType::kInt64, true}};
  schema.primary_key = {0};
  schema.time_index = 1;
  schema.partition_columns = {"host"};
  schema.append_mode = append_mode;
  return schema;
}

inline model::Row R(const char* host, int64_t ts, int64_t v) {
  return model::Row{host == nullptr ? model::Value::Null() : model::Value::String(host),
                    model::Value::Timestamp(ts), model::Value::Int(v)};
}

}  // namespace repartsim::check::testing_schema
