// Parsed SQL statements. Partition expressions in ALTER statements are RAW: their literals
// keep the parsed type (integer literal -> Int64, decimal -> Float64, 'x' -> String) because
// the real system types them only during validation, against the existing or the target
// partition columns (ddl.rs convert_value). CREATE TABLE expressions are typed at parse time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/partition/predicate.h"
#include "model/partition/rule.h"
#include "sim/result.h"

namespace repartsim::model::sql {

struct LocatedExpr {
  PartitionExpr expr;
  sim::SourceLocation location;  // where the expression starts
};

struct CreateTable {
  TableSchema schema;
  PartitionRule rule;  // regions 0..n-1 in PARTITION ON COLUMNS order; empty if unpartitioned
  std::vector<sim::SourceLocation> expr_locations;
  bool if_not_exists = false;
  // ENGINE = metric WITH (on_physical_table = 'p'): a logical table over the physical table
  // p, whose regions and routes are p's ("" for an ordinary table).
  std::string physical_table;
};

struct AlterRepartition {
  enum class Kind { kRepartition, kSplit, kMerge, kPartitionOn };
  Kind kind = Kind::kRepartition;
  std::string table;
  std::vector<LocatedExpr> from;  // empty for kPartitionOn
  std::optional<std::vector<std::string>> on_columns;
  std::vector<LocatedExpr> into;  // kMerge: the left-fold OR of `from`
  bool wait = true;
  int64_t timeout_ms = 60000;
};

// `ADMIN migrate_region(region_id, from_peer, to_peer[, timeout_secs])`: GreptimeDB's
// administration function that submits a region migration to the metasrv and answers with the
// procedure id, without waiting for it (src/common/function/src/admin/migrate_region.rs).
// region_id is the full region id (table id << 32 | region number); peers are datanode ids.
struct AdminMigrateRegion {
  uint64_t region_id = 0;
  uint64_t from_peer = 0;
  uint64_t to_peer = 0;
  std::optional<uint64_t> timeout_secs;  // GreptimeDB's default: 10 s
  sim::SourceLocation region_location;   // where region_id is, for load-time errors
};

// `ADMIN flush_table('t')` and `ADMIN compact_table('t'[, 'type'[, 'options']])`: GreptimeDB's
// administration functions that flush or compact every region of a table and answer 0
// (src/common/function/src/admin/flush_compact_table.rs). The table is the string's name.
struct AdminTableFunction {
  enum class Kind { kFlushTable, kCompactTable };
  Kind kind = Kind::kFlushTable;
  std::string table;
  std::vector<std::string> options;  // compact_table's further arguments (type, options)
};

struct Insert {
  std::string table;
  std::vector<std::string> columns;  // empty: all columns in schema order
  std::vector<std::vector<Value>> rows;
  std::vector<sim::SourceLocation> row_locations;
};

struct OrderByItem {
  std::string column;
  bool descending = false;
};

struct Select {
  std::string table;
  bool count_star = false;
  std::vector<std::string> columns;  // `SELECT a, b`: the columns in order; empty: `*` or count(*)
  std::optional<Predicate> where;
  std::vector<OrderByItem> order_by;
};

struct Statement {
  std::variant<CreateTable, AlterRepartition, Insert, Select, AdminMigrateRegion,
               AdminTableFunction>
      body;
  sim::SourceLocation location;  // first token
  std::string text;              // the statement's source text (without the ';')
};

}  // namespace repartsim::model::sql
