// Fault actions of a scenario, scheduled at a virtual time (or armed on a procedure state) on
// the cluster's op queue: crash/restart a node, flush or compact a region, network partitions
// and their end, a frontend that keeps a stale cache, scripted message rules, an explicit
// lease expiry.
// They act on the cluster's wiring, not through a node's messages. Plain data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/meta/ids.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

struct CrashNodeOp {
  NodeId node;
};
struct RestartNodeOp {
  NodeId node;
  // A datanode only: the first this-many WAL entries it replays when it reopens its regions
  // fail to apply (a scripted replay fault; NodeFaults::replay_fail draws further ones).
  uint32_t replay_failures = 0;
};
struct FlushOp {
  NodeId node;
  RegionId region;
  bool every_region = false;  // every writable region of every datanode up (node, region unused)
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
// A compaction of one region's files on one datanode (Datanode::HandleCompact), or with
// `every_region`, of every writable region with two or more files on every running datanode
// when the step runs (regions a repartition created included).
struct CompactOp {
  NodeId node;
  RegionId region;
  bool every_region = false;
};

// A pass of the metasrv's GC over every table (Cluster::RunGcPass, model/gc/gc.h).
struct GcOp {};

// A scripted region migration (`migrate:` step; GreptimeDB's ADMIN migrate_region): submits a
// RegionMigration procedure of `region` from `from` to `to` with budget `timeout_ms` to the
// metasrv, if it is up.
struct MigrateRegionOp {
  RegionId region;
  NodeId from;
  NodeId to;
  int64_t timeout_ms = 10000;
  // The frontend an `ADMIN migrate_region(...)` statement was sent to (refused while it is
  // down); nullopt for the `migrate:` step, which submits to the metasrv directly.
  std::optional<uint32_t> frontend = std::nullopt;
};

using FaultAction =
    std::variant<CrashNodeOp, RestartNodeOp, FlushOp, PartitionOp, HealOp, StaleCacheOp,
                 MessageRuleOp, ExpireLeaseOp, CompactOp, GcOp, MigrateRegionOp>;

// "crash", "restart", "flush", "partition", "heal", "stale_cache", "message_rule",
// "expire_lease", "compact", "gc", "migrate" (the trace's `op` lines).
const char* FaultActionName(const FaultAction& action);
// The action's fields, without its kind.
void HashFaultAction(sim::Hasher& h, const FaultAction& action);
void HashMessageRule(sim::Hasher& h, const MessageRule& rule);

}  // namespace repartsim::model
