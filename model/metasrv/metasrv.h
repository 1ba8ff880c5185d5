// The metasrv (docs/protocol.md sections 2.4, 7, 8, 9, 10.1): its durable key-value store and
// procedure store, the procedure runner, route fills for frontends, heartbeats with region leases
// for datanodes (3 s heartbeat, 10 s lease), region requests from procedures (replies routed back
// to the waiting procedure), and cache-invalidation broadcasts (fire-and-forget, or
// acknowledged and retried under Rule::kAckedInvalidation). A crash loses the volatile state
// (running procedures, locks, inboxes, pending invalidation acks); Restart() recovers root
// procedures from their records. Plain value: copy = snapshot.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "model/ddl/ddl_context.h"
#include "model/ddl/metasrv_env.h"
#include "model/meta/kv_store.h"
#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/metasrv/meta_procedure.h"
#include "model/node/message.h"
#include "model/node/node_context.h"
#include "model/sql/repartition_planner.h"
#include "model/sql/statement.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

struct MetasrvConfig {
  sim::Duration region_lease = sim::Seconds(10);       // 3 x heartbeat + 1 s
  sim::Duration request_timeout = sim::Seconds(5);     // mailbox / region RPC timeout
  sim::Duration invalidation_retry = sim::Seconds(1);  // Rule::kAckedInvalidation
  ProcedureConfig procedure;
};

class Metasrv final : private DdlContext {
 public:
  Metasrv(NodeId id, std::vector<NodeId> datanodes, std::vector<NodeId> frontends,
          MetasrvConfig config = {});

  NodeId id() const { return id_; }
  bool is_up() const { return up_; }

  // Submits a procedure (e.g. CREATE TABLE), runnable now. REQUIRES: is_up().
  ProcedureId Submit(MetaProcedure procedure, sim::SimTime now);
  // ---- DDL submission (metasrv_ddl.cc); each logs `ms.submit`. REQUIRES: is_up(), recovered().
  // CREATE TABLE: the route's regions become operating regions, the procedure is submitted.
  ProcedureId SubmitCreateTable(const TableInfo& info, const TableRoute& route, NodeContext& ctx);
  // A repartition as the frontend validated it (`task`): writes the durable GC requirement
  // marker, fills the procedure's persistent context (expressions, target columns, timeout)
  // and submits it.
  ProcedureId SubmitRepartition(const RepartitionTask& task, NodeContext& ctx);
  // A region migration (RegionMigrationManager::submit_procedure; trigger Manual): `region`
  // from datanode `from` to `to` within `timeout_ms`. Logs `ms.submit`.
  ProcedureId SubmitMigration(RegionId region, NodeId from, NodeId to, int64_t timeout_ms,
                              NodeContext& ctx, std::string trigger_reason = "Manual");
  // A region rebalancer (GreptimeDB Enterprise's Autopilot Region Balancer [inferred]): picks
  // one region of the first table route (Choose "net.migrate_region") and a datanode that does
  // not lead it (Choose "net.migrate_to"), and submits its migration with the default budget
  // (10 s) and trigger reason `Rebalance`, after the checks of RegionMigrationManager::
  // submit_procedure: a region with a running migration is skipped
  // (RegionMigrationProcedureTracker). Logs `ms.rebalance`; nothing when no route or no
  // other datanode exists.
  void RebalanceRandomRegion(const std::vector<NodeId>& datanodes, sim::Chooser& chooser,
                             NodeContext& ctx);
  // Runs one step of a procedure; returns false iff a crash point fired (crash the metasrv).
  // A root procedure that ends is recorded in History::procedure_ends and answers the DDL
  // call waiting on it, if any.
  bool RunProcedure(ProcedureId id, NodeContext& ctx);

  void OnMessage(NodeId from, const Message& message, NodeContext& ctx);
  // The earliest time the metasrv wants to run a timer (invalidation resends), if any.
  std::optional<sim::SimTime> NextTimer() const;
  void OnTimer(NodeContext& ctx);

  void Crash();
  // Comes back up and recovers root procedures from the procedure store, at once or, with a
  // leader-start `window`, when the window ends (OnTimer): meanwhile heartbeats and route
  // fills are served but no procedure runs and no DDL is taken. Recovery re-registers the
  // regions of a CreateTable whose route is allocated (CreateTableProcedure::recover).
  sim::Status Restart(sim::SimTime now, sim::Duration window = sim::Duration{0});
  // False inside the leader-start window.
  bool recovered() const { return !recover_at_.has_value(); }

  const KvStore& kv() const { return kv_; }
  KvStore& mutable_kv() override { return kv_; }
  const MetaProcedureManager& procedures() const { return procedures_; }
  const MetasrvConfig& config() const { return config_; }
  const std::vector<NodeId>& datanodes() const override { return datanodes_; }
  uint64_t epoch(TableId table) const;
  // Regions being created or moved that may hold a lease before any route lists them
  // (MemoryRegionKeeper), each with the procedure holding it; released when that procedure
  // ends (done or failed), like GreptimeDB's OperatingRegionGuard, and on a crash.
  std::map<RegionId, ProcedureId>& operating_regions() override { return operating_regions_; }
  std::map<std::pair<NodeId, RegionId>, ProcedureId>& follower_regions() override {
    return follower_regions_;
  }
  DynamicLockTable& dynamic_locks() override { return procedures_.mutable_dynamic_locks(); }
  // The route stored at kv `key`, whose bytes are `bytes`, decoded. Decoding a route is costly
  // (JSON with nested expression JSON), so the last decode per key is kept while the stored
  // bytes are unchanged: a derived cache, not state, not fingerprinted.
  const TableRoute& DecodeRoute(const std::string& key, const std::string& bytes) const override;
  // True iff every invalidation has been acknowledged (always true when not acked).
  bool invalidations_settled() const { return pending_acks_.empty(); }

  void Hash(sim::Hasher& h) const;

 private:
  // DdlContext, for the procedures' MetasrvEnv.
  uint64_t RegisterRequest(ProcedureId owner) override;
  Inbox& InboxOf(ProcedureId owner) override { return inboxes_[owner]; }
  void ForgetRequest(ProcedureId owner, uint64_t corr) override;
  void InvalidateTable(TableId table, NodeContext& ctx) override { Broadcast(table, ctx); }
  sim::Duration request_timeout() const override { return config_.request_timeout; }

  void OnRouteRequest(NodeId from, const RouteRequest& request, NodeContext& ctx);
  void OnHeartbeat(NodeId from, const Heartbeat& heartbeat, NodeContext& ctx);
  void OnRegionResponse(const RegionResponse& response, NodeContext& ctx);
  // ---- DDL calls (metasrv_ddl.cc) ----
  // A frontend's DDL task: submitted, and answered when its procedure ends (AnswerDdl); or
  // refused as unavailable inside the leader-start window.
  void OnDdlSubmit(NodeId from, const DdlSubmit& submit, NodeContext& ctx);
  // Every DDL call whose procedure ended (Done or Failed) gets the outcome.
  void AnswerEndedDdls(NodeContext& ctx);
  void Broadcast(TableId table, NodeContext& ctx);
  sim::Status RecoverProcedures(sim::SimTime now);

  friend struct sim::FingerprintSeam<Metasrv>;

  NodeId id_;
  std::vector<NodeId> datanodes_;
  std::vector<NodeId> frontends_;
  MetasrvConfig config_;
  bool up_ = true;
  // Durable.
  KvStore kv_;
  MetaProcedureManager procedures_;     // its ProcedureStore is durable, the rest volatile
  std::map<TableId, uint64_t> epochs_;  // invalidation epochs; only grow
  uint64_t next_corr_ = 1;
  // Volatile.
  std::map<uint64_t, ProcedureId> corr_owner_;
  std::map<ProcedureId, Inbox> inboxes_;
  std::map<RegionId, ProcedureId> operating_regions_;
  std::map<std::pair<NodeId, RegionId>, ProcedureId> follower_regions_;
  std::map<std::pair<NodeId, TableId>, uint64_t> pending_acks_;  // frontend, table -> epoch
  // The DDL calls waiting on a root procedure (the procedure watcher of each submission).
  struct DdlWaiter {
    NodeId frontend;
    uint64_t corr = 0;
    uint64_t ddl = 0;  // History record, 0 for none
  };
  std::map<ProcedureId, DdlWaiter> ddl_waiters_;
  sim::SimTime next_resend_;
  std::optional<sim::SimTime> recover_at_;  // inside the leader-start window: recovery time
  // Derived: the last decode of each stored route, keyed by kv key (see DecodeRoute).
  struct DecodedRoute {
    std::string raw;
    TableRoute route;
  };
  mutable std::map<std::string, DecodedRoute> decoded_routes_;
};

}  // namespace repartsim::model
