#include "checker/check/probe_rows.h"

#include <optional>
#include <set>

#include "sim/assert.h"

namespace repartsim::check {

namespace {

// An unambiguous key of one value: type tag, then a length-prefixed payload.
void AppendKey(const model::Value& value, std::string& key) {
  key += std::to_string(static_cast<int>(value.type()));
  const std::string payload =
      value.type() == model::ValueType::kString ? value.as_string() : value.ToDebug();
  key += ':' + std::to_string(payload.size()) + ':' + payload;
}

}  // namespace

std::optional<int64_t> TimeIndexOf(const model::Value& value) {
  switch (value.type()) {
    case model::ValueType::kTimestamp:
      return value.as_timestamp_ms();
    case model::ValueType::kInt64:
      return value.as_int();
    case model::ValueType::kUInt64:
      return static_cast<int64_t>(value.as_uint());
    default:
      return std::nullopt;
  }
}

const ProbeRegion* RegionCovering(const std::vector<ProbeRegion>& regions,
                                  const model::TableSchema& schema, const model::Row& row) {
  for (const ProbeRegion& r : regions) {
    if (r.expr == nullptr || model::MatchesRowPath(*r.expr, schema, row)) return &r;
  }
  return nullptr;
}

FirstRowsByTuple::FirstRowsByTuple(const model::TableSchema& schema,
                                   const std::vector<std::string>& partition_columns) {
  for (const std::string& name : partition_columns) {
    if (auto index = schema.FindColumn(name)) columns_.push_back(*index);
  }
}

void FirstRowsByTuple::Add(const model::Row& row) {
  key_.clear();
  for (size_t c : columns_) {
    REPARTSIM_ASSERT(c < row.size());
    AppendKey(row[c], key_);
  }
  if (seen_.insert(key_).second) rows_.push_back(row);
}

std::vector<model::Row> ChooseProbeRows(const model::TableSchema& schema,
                                        const std::vector<std::string>& partition_columns,
                                        const std::vector<const model::Row*>& written,
                                        const std::vector<ProbeRegion>& regions, size_t cap) {
  // First row of each distinct tuple, in first-seen order.
  FirstRowsByTuple distinct(schema, partition_columns);
  for (const model::Row* row : written) distinct.Add(*row);
  std::vector<const model::Row*> firsts;
  for (const model::Row& row : distinct.rows()) firsts.push_back(&row);
  std::vector<model::Row> out;
  std::set<uint64_t> covered;  // region ids represented so far
  auto take = [&](const model::Row* row) {
    out.push_back(*row);
    if (const ProbeRegion* r = RegionCovering(regions, schema, *row)) {
      covered.insert(r->region.value);
    }
  };
  for (size_t i = 0; i < firsts.size() && i < cap; ++i) take(firsts[i]);
  for (size_t i = cap; i < firsts.size(); ++i) {
    const ProbeRegion* r = RegionCovering(regions, schema, *firsts[i]);
    if (r != nullptr && covered.count(r->region.value) == 0) take(firsts[i]);
  }
  return out;
}

int64_t FreshTimeIndex(const model::TableSchema& schema,
                       std::span<const model::Row* const> written) {
  int64_t max = -1;
  for (const model::Row* row : written) {
    REPARTSIM_ASSERT(schema.time_index < row->size());
    if (auto ts = TimeIndexOf((*row)[schema.time_index]); ts && *ts > max) max = *ts;
  }
  return max + 1;
}

model::Row WithTimeIndex(const model::TableSchema& schema, model::Row row, int64_t value) {
  REPARTSIM_ASSERT(schema.time_index < row.size());
  const model::ColumnType type = schema.columns[schema.time_index].type;
  switch (model::StorageType(type)) {
    case model::ValueType::kTimestamp:
      row[schema.time_index] = model::Value::Timestamp(value);
      break;
    case model::ValueType::kUInt64:
      row[schema.time_index] = model::Value::UInt(static_cast<uint64_t>(value));
      break;
    case model::ValueType::kInt64:
      row[schema.time_index] = model::Value::Int(value);
      break;
    default:
      REPARTSIM_ASSERT_MSG(false, "time index column is not a timestamp or an integer");
  }
  return row;
}

}  // namespace repartsim::check
