// Client statements: what a client sends to the database, scheduled at a virtual time on the
// cluster's op queue. INSERT and SELECT go to a frontend; CREATE TABLE and ALTER TABLE ...
// REPARTITION are DDL. Each gets a History record when issued. Plain data. (Scripted faults
// are not client statements: see model/cluster/fault_action.h.)
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/meta/ids.h"
#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/node/write_path.h"
#include "model/partition/predicate.h"
#include "model/partition/schema.h"
#include "model/sql/statement.h"
#include "sim/fingerprint.h"

namespace repartsim::model {

struct InsertOp {
  uint32_t frontend_index = 0;
  TableId table;
  std::vector<Row> rows;
  WritePath path = WritePath::kRow;
};
struct QueryOp {
  uint32_t frontend_index = 0;
  TableId table;
  bool count_star = false;
  std::optional<Predicate> where;
  std::string sql;
};
struct CreateTableOp {
  TableInfo info;
  TableRoute route;  // regions with their leaders (placement decided by the caller)
};
// ALTER TABLE ... REPARTITION / SPLIT / MERGE / PARTITION ON COLUMNS through a frontend: the
// frontend validates it against its cached route (docs/protocol.md section 4) and submits the
// parent procedure to the metasrv; the outcome lands in History::ddls.
struct RepartitionOp {
  uint32_t frontend_index = 0;
  TableId table;
  sql::AlterRepartition alter;
  std::string sql;
  // false (scenario step `validate: false`): the frontend submits the statement without its
  // rule check, as a client calling the metasrv's DDL API directly would.
  bool validate = true;
};

using ClientStatement = std::variant<InsertOp, QueryOp, CreateTableOp, RepartitionOp>;

// "insert", "query", "create_table", "repartition" (the trace's `op` lines).
const char* StatementName(const ClientStatement& statement);
// The statement's fields, without its kind.
void HashStatement(sim::Hasher& h, const ClientStatement& statement);

}  // namespace repartsim::model
