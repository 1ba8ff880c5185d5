// Table metadata kept at __table_info/{table_id} (docs/protocol.md section 2.4): id, name, schema,
// the partition key column indices (empty = unpartitioned; the authoritative partition columns),
// the engine ("mito") and table options. Plain value; Hash covers every field.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "model/meta/ids.h"
#include "model/partition/schema.h"
#include "sim/fingerprint.h"

namespace repartsim::model {

struct TableInfo {
  TableId table_id;
  std::string name;
  TableSchema schema;
  std::vector<size_t> partition_key_indices;
  std::string engine = "mito";
  std::map<std::string, std::string> options;

  bool is_partitioned() const { return !partition_key_indices.empty(); }
  // Names of the partition key columns, in partition_key_indices order.
  std::vector<std::string> PartitionColumnNames() const;

  void Hash(sim::Hasher& h) const;
};

bool operator==(const TableInfo& a, const TableInfo& b);
// Field-wise schema equality (TableSchema has no operator== of its own).
bool SchemaEquals(const TableSchema& a, const TableSchema& b);
void HashSchema(const TableSchema& schema, sim::Hasher& h);

}  // namespace repartsim::model
