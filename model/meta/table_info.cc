#include "model/meta/table_info.h"

#include "sim/assert.h"

namespace repartsim::model {

std::vector<std::string> TableInfo::PartitionColumnNames() const {
  std::vector<std::string> names;
  names.reserve(partition_key_indices.size());
  for (size_t index : partition_key_indices) {
    REPARTSIM_ASSERT(index < schema.columns.size());
    names.push_back(schema.columns[index].name);
  }
  return names;
}

bool SchemaEquals(const TableSchema& a, const TableSchema& b) {
  if (a.name != b.name || a.columns.size() != b.columns.size()) return false;
  for (size_t i = 0; i < a.columns.size(); ++i) {
    const Column& x = a.columns[i];
    const Column& y = b.columns[i];
    if (x.name != y.name || x.type != y.type || x.nullable != y.nullable) return false;
  }
  return a.primary_key == b.primary_key && a.time_index == b.time_index &&
         a.partition_columns == b.partition_columns && a.append_mode == b.append_mode;
}

void HashSchema(const TableSchema& schema, sim::Hasher& h) {
  h.Add(std::string_view(schema.name));
  h.Add(static_cast<uint64_t>(schema.columns.size()));
  for (const Column& c : schema.columns) {
    h.Add(std::string_view(c.name));
    h.Add(static_cast<uint64_t>(c.type));
    h.Add(c.nullable);
  }
  h.Add(static_cast<uint64_t>(schema.primary_key.size()));
  for (size_t k : schema.primary_key) h.Add(static_cast<uint64_t>(k));
  h.Add(static_cast<uint64_t>(schema.time_index));
  h.Add(static_cast<uint64_t>(schema.partition_columns.size()));
  for (const std::string& p : schema.partition_columns) h.Add(std::string_view(p));
  h.Add(schema.append_mode);
}

bool operator==(const TableInfo& a, const TableInfo& b) {
  return a.table_id == b.table_id && a.name == b.name && SchemaEquals(a.schema, b.schema) &&
         a.partition_key_indices == b.partition_key_indices && a.engine == b.engine &&
         a.options == b.options;
}

void TableInfo::Hash(sim::Hasher& h) const {
  table_id.Hash(h);
  h.Add(std::string_view(name));
  HashSchema(schema, h);
  h.Add(static_cast<uint64_t>(partition_key_indices.size()));
  for (size_t k : partition_key_indices) h.Add(static_cast<uint64_t>(k));
  h.Add(std::string_view(engine));
  h.Add(static_cast<uint64_t>(options.size()));
  for (const auto& [key, value] : options) {
    h.Add(std::string_view(key));
    h.Add(std::string_view(value));
  }
}

}  // namespace repartsim::model
