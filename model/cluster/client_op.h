// Client operations and scripted actions, scheduled at a virtual time on the cluster's op
// queue: statements a client sends to a frontend (INSERT, SELECT), DDL submitted to the
// metasrv, and fault actions of a scenario (crash/restart a node, flush a region, partitions,
// a frontend that keeps a stale cache). Plain data.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/meta/ids.h"
#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/partition/predicate.h"
#include "model/partition/schema.h"
#include "model/sql/statement.h"
#include "sim/fingerprint.h"

namespace repartsim::model {

struct InsertOp {
  uint32_t frontend_index = 0;
  TableId table;
  std::vector<Row> rows;
  bool bulk = false;  // bulk insert / pending-rows batcher path
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
// frontend validates it against its cached route (reference 2.4) and submits the parent
// procedure to the metasrv; the outcome lands in History::ddls.
struct RepartitionOp {
  uint32_t frontend_index = 0;
  TableId table;
  sql::AlterRepartition alter;
  std::string sql;
};
struct CrashNodeOp {
  NodeId node;
};
struct RestartNodeOp {
  NodeId node;
};
struct FlushOp {
  NodeId node;
  RegionId region;
};
struct PartitionOp {
  std::vector<NodeId> side_a;
  std::vector<NodeId> side_b;
  bool symmetric = true;
};
struct HealOp {};
struct StaleCacheOp {
  uint32_t frontend_index = 0;
  TableId table;
  bool ignore_invalidations = true;
};

using ClientOp = std::variant<InsertOp, QueryOp, CreateTableOp, RepartitionOp, CrashNodeOp, RestartNodeOp,
                              FlushOp, PartitionOp, HealOp, StaleCacheOp>;

const char* ClientOpName(const ClientOp& op);
void HashClientOp(sim::Hasher& h, const ClientOp& op);

}  // namespace repartsim::model
