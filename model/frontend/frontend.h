// A frontend (docs/protocol.md section 5): table route and partition-info caches, the write path
// (row path and bulk path, per-region version stamping, one request per datanode, no retry in the
// real system) and the query path (prune with the cached rule, scan candidate regions on their
// leaders, merge without cross-region dedup). A cache fill is a round trip to the metasrv, so
// it can race an invalidation: in `greptime` a fill that raced keeps the stale route; under
// Rule::kVersionedCacheFills it is discarded and refilled. Plain value: copy = snapshot.
// Outcomes of statements go to the run's History (model/node/history.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/node/message.h"
#include "model/node/node_context.h"
#include "model/partition/rule.h"
#include "sim/time.h"

namespace repartsim::model {

struct FrontendConfig {
  sim::Duration request_timeout = sim::Seconds(5);  // write/scan/route round trips
  uint32_t reroute_attempts_max = 3;                // Rule::kRerouteOnVersionMismatch
};

// The write-side and read-side partition views a frontend builds from one cached route.
struct PartitionView {
  PartitionRule write_rule;                 // excludes IgnoreAllWrites routes
  std::map<uint32_t, uint64_t> versions;    // region number -> version (write side)
  std::vector<RegionId> read_regions;       // every route (read side)
};

// Builds the partition views the real frontend builds (docs/protocol.md sections 5.1, 2.3): regions
// = every write partition, exprs = only those with an expression; under Rule::kAlignedPartitionRule
// an expression-less region is left out of both lists (P3 fix).
PartitionView BuildPartitionView(const TableRoute& route, const TableInfo& info,
                                 const Protocol& protocol);

class Frontend {
 public:
  struct CachedTable {
    TableRoute route;
    TableInfo info;
  };

  explicit Frontend(NodeId id, NodeId metasrv, FrontendConfig config = {})
      : id_(id), metasrv_(metasrv), config_(config) {}

  NodeId id() const { return id_; }
  bool is_up() const { return up_; }

  // Client statements. `history_id` names the History record the caller created.
  void StartInsert(uint64_t history_id, TableId table, std::vector<Row> rows, bool bulk,
                   NodeContext& ctx);
  void StartQuery(uint64_t history_id, TableId table, NodeContext& ctx);

  void OnMessage(NodeId from, const Message& message, NodeContext& ctx);
  // The earliest request deadline, if any request is outstanding.
  std::optional<sim::SimTime> NextTimer() const;
  // Expires every request whose deadline is <= now.
  void OnTimer(NodeContext& ctx);

  // Drops the table's cached route (as an invalidation does).
  void Invalidate(TableId table);
  // Keeps a stale cache: invalidations of `table` are ignored while set (scenario fault).
  void SetIgnoreInvalidations(TableId table, bool ignore);
  void Crash(NodeContext& ctx);
  void Restart();

  const std::map<TableId, CachedTable>& cache() const { return cache_; }
  void Hash(sim::Hasher& h) const;

 private:
  enum class Kind : uint8_t { kInsert, kQuery };
  enum class Phase : uint8_t { kWaitingRoute, kInFlight };
  struct SubRequest {
    NodeId node;
    std::vector<RegionWrite> writes;  // inserts: what was sent (for re-routing)
    RegionId region;                  // queries
  };
  struct Statement {
    uint64_t id = 0;   // History id (of a write or of a query)
    uint64_t key = 0;  // StatementKey(kind, id): the key in statements_
    Kind kind = Kind::kInsert;
    TableId table;
    bool bulk = false;
    Phase phase = Phase::kWaitingRoute;
    std::vector<Row> rows;  // inserts: rows still to route
    uint32_t attempts = 0;
    std::map<uint64_t, SubRequest> outstanding;  // corr -> request
    sim::SimTime deadline;
    // Outcome so far.
    uint32_t ok_count = 0;
    uint32_t error_count = 0;
    uint32_t unknown_count = 0;
    std::string error;
    std::vector<Row> result_rows;  // queries
    TableSchema schema;             // queries: the schema the query was planned with
    std::vector<RegionId> scanned;
    bool replan = false;
  };
  struct Fill {
    uint64_t corr = 0;
    uint64_t invalidations_at_start = 0;
    sim::SimTime deadline;
    uint32_t reloads = 0;  // raced fills discarded before this one
  };
  // greptime's VersionChecked cache containers reload a value whose load an invalidation
  // interrupted, up to this many times (docs/protocol.md section 8); what the loader does when the
  // last reload races again is not stated: we keep that value [inferred]. Under
  // Rule::kVersionedCacheFills a raced fill is always discarded.
  static constexpr uint32_t kVersionCheckedReloads = 3;

  void RequestRoute(TableId table, NodeContext& ctx, uint32_t reloads = 0);
  void OnRouteReply(const RouteReply& reply, NodeContext& ctx);
  void OnInvalidate(const InvalidateCache& message, NodeContext& ctx);
  void Dispatch(Statement& statement, NodeContext& ctx);
  void DispatchInsert(Statement& statement, const CachedTable& table, NodeContext& ctx);
  void DispatchQuery(Statement& statement, const CachedTable& table, NodeContext& ctx);
  void OnWriteReply(const WriteReply& reply, NodeContext& ctx);
  void OnScanResponse(const ScanResponse& reply, NodeContext& ctx);
  void MaybeFinish(Statement& statement, NodeContext& ctx);
  void FinishStatement(Statement& statement, NodeContext& ctx);
  uint64_t NextCorr() { return next_corr_++; }

  NodeId id_;
  NodeId metasrv_;
  FrontendConfig config_;
  bool up_ = true;
  std::map<TableId, CachedTable> cache_;
  std::map<TableId, uint64_t> invalidations_;  // invalidations received per table
  std::set<TableId> ignore_invalidations_;
  std::map<TableId, Fill> fills_;
  // Writes and queries number their History ids independently, so statements are keyed by
  // StatementKey(kind, id).
  static uint64_t StatementKey(Kind kind, uint64_t history_id) {
    return history_id * 2 + (kind == Kind::kQuery ? 1 : 0);
  }
  std::map<uint64_t, Statement> statements_;   // by StatementKey
  std::map<uint64_t, uint64_t> corr_owner_;    // request corr -> statement id
  uint64_t next_corr_ = 1;
};

}  // namespace repartsim::model
