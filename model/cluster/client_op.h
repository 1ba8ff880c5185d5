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
#include "sim/time.h"

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
// frontend validates it against its cached route (docs/protocol.md section 4) and submits the
// parent procedure to the metasrv; the outcome lands in History::ddls.
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
// Ends partitions. `end_of_safety` (the marker at the end of a run's safety phase) also ends
// the scripted message rules, releases held messages and disarms steps whose procedure state
// never passed.
struct HealOp {
  bool end_of_safety = false;
};
struct StaleCacheOp {
  uint32_t frontend_index = 0;
  TableId table;
  bool ignore_invalidations = true;
};

// A scripted message fault on messages of one kind (a MessageKindName such as
// "InvalidateCache", or a region request's op name such as "EnterStaging"), optionally only
// from or to one node. It affects the next `count` matching messages (0: every one until the
// safety phase ends):
//   kDrop: lost;  kDelay: delivered `delay` later than the link latency;
//   kDuplicate: delivered twice;  kHold: kept back until a procedure state named
//   `until_state` ("Type.State") has passed, then sent;
//   kReorder: the first matching message is kept back until the next one is sent, then sent
//   right after it (1 ms later), so the two arrive in the opposite order.
enum class MessageAction : uint8_t { kDrop, kDelay, kDuplicate, kHold, kReorder };
const char* MessageActionName(MessageAction action);

struct MessageRule {
  MessageAction action = MessageAction::kDrop;
  std::string kind;
  std::optional<NodeId> from;
  std::optional<NodeId> to;
  uint32_t count = 1;
  sim::Duration delay{0};
  std::string until_state;
};
struct MessageRuleOp {
  MessageRule rule;
};
// Every region lease on the datanode expires now (a clock jump, or heartbeats lost for a whole
// lease period): its leader regions become followers until a heartbeat grants the lease again.
struct ExpireLeaseOp {
  NodeId node;
};

using ClientOp = std::variant<InsertOp, QueryOp, CreateTableOp, RepartitionOp, CrashNodeOp,
                              RestartNodeOp, FlushOp, PartitionOp, HealOp, StaleCacheOp,
                              MessageRuleOp, ExpireLeaseOp>;

const char* ClientOpName(const ClientOp& op);
void HashClientOp(sim::Hasher& h, const ClientOp& op);
void HashMessageRule(sim::Hasher& h, const MessageRule& rule);

}  // namespace repartsim::model
