// A frontend (docs/protocol.md section 5): the node that takes client statements. Its parts,
// one concept each: the table route and partition-info cache with its fills (route_cache.h),
// the write router (write_router.h: row path and bulk path, per-region version stamping, one
// request per datanode, no retry in the real system), the query planner (query_planner.h:
// prune with the cached rule, scan candidate regions on their leaders; merged without
// cross-region dedup) and the statement table (statement_table.h: what is in flight and how
// it ends). This class is the message dispatch and the retry policy that joins them. Plain
// value: copy = snapshot. Outcomes of statements go to the run's History (model/node/history.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/frontend/partition_view.h"
#include "model/frontend/route_cache.h"
#include "model/frontend/statement_table.h"
#include "model/meta/ids.h"
#include "model/node/message.h"
#include "model/node/node_context.h"
#include "model/partition/predicate.h"
#include "model/sql/statement.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

struct FrontendConfig {
  sim::Duration request_timeout = sim::Seconds(5);  // write/scan/route round trips
  uint32_t reroute_attempts_max = 3;                // Rule::kRerouteOnVersionMismatch
  bool gc_enabled = true;  // metasrv GC on: a repartition is refused without it
  // Submissions of one DDL task: the meta client's DEFAULT_SUBMIT_DDL_MAX_RETRY (a test that
  // studies one procedure alone may set 1).
  uint32_t ddl_submit_attempts = 3;
};

// A DDL statement in flight on a frontend: waiting for the table's route (a repartition is
// validated against the cached route and table info), or submitted and waiting for the
// metasrv's answer. A submitted call carries the DDL's timeout as its call deadline (GreptimeDB:
// SubmitDdlTaskRequest's timeout, 60 s unless the statement sets one, is the gRPC deadline of
// the meta client's submit_ddl_task). At the deadline the meta client treats the leader as
// unreachable and submits the same task again as a new call (with_retry, at most 3 attempts in
// all), whatever became of the first; after the third deadline, or when either end crashes,
// the DDL ends with an unknown outcome.
struct FrontendDdl {
  uint64_t history_id = 0;  // 0: no History record (the setup CREATE TABLE)
  TableId table;
  std::optional<sql::AlterRepartition> alter;  // a repartition; else `create`
  std::optional<CreateTableTask> create;
  std::optional<RepartitionTask> task;  // the validated repartition, as submitted
  bool check_rule = true;               // false: no rule check before submitting
  bool submitted = false;
  uint32_t attempts = 0;  // submissions so far
  sim::SimTime deadline;  // of the current call
};

class Frontend {
 public:
  using CachedTable = model::CachedTable;

  explicit Frontend(NodeId id, NodeId metasrv, FrontendConfig config = {})
      : id_(id), metasrv_(metasrv), config_(config) {}

  NodeId id() const { return id_; }
  bool is_up() const { return up_; }

  // Client statements. `history_id` names the History record the caller created.
  void StartInsert(uint64_t history_id, TableId table, std::vector<Row> rows, WritePath path,
                   NodeContext& ctx);
  void StartQuery(uint64_t history_id, TableId table, std::optional<Predicate> where,
                  NodeContext& ctx);
  // DDL statements (frontend_ddl.cc): CREATE TABLE as planned by the client, and ALTER TABLE
  // ... REPARTITION validated against the cached route and table info, each submitted to the
  // metasrv as a DdlSubmit call; the DdlReply (or the call's timeout) ends it.
  void StartCreateTable(uint64_t history_id, CreateTableTask task, NodeContext& ctx);
  // `check_rule` false: submitted without the rule check (scenario step `validate: false`).
  void StartRepartition(uint64_t history_id, TableId table, sql::AlterRepartition alter,
                        NodeContext& ctx, bool check_rule = true);

  // The frontend resent write request `corr` (one more copy in flight, an application retry):
  // its statement waits for every copy's answer before it counts a refusal, so a write is
  // rejected only when every copy was refused (docs/invariants.md, writes).
  void NoteResent(uint64_t corr, NodeContext& ctx);
  // True iff the setup CREATE TABLE's call (the DDL without a History record) is outstanding.
  bool HasSetupDdl() const;
  // Handles a RouteReply, InvalidateCache, WriteReply, ScanResponse or DdlReply.
  // REQUIRES: is_up().
  void OnMessage(NodeId from, Message&& message, NodeContext& ctx);
  // The earliest request deadline, if any request is outstanding.
  std::optional<sim::SimTime> NextTimer() const;
  // Expires every request whose deadline is <= now.
  void OnTimer(NodeContext& ctx);

  // Drops the table's cached route (as an invalidation does).
  void Invalidate(TableId table) { routes_.Invalidate(table); }
  // Keeps a stale cache: invalidations of `table` are ignored while set (scenario fault).
  void SetIgnoreInvalidations(TableId table, bool ignore) {
    routes_.SetIgnoreInvalidations(table, ignore);
  }
  // The connection to the metasrv broke (the metasrv crashed): every DDL call in flight ends
  // unknown (its procedure may still run, and finish after recovery).
  void OnMetasrvLost(NodeContext& ctx);
  // Every statement in flight ends unknown (writes) or in error (queries); the cache is lost.
  void Crash(NodeContext& ctx);
  void Restart() { up_ = true; }

  const std::map<TableId, CachedTable>& cache() const { return routes_.tables(); }
  void Hash(sim::Hasher& h) const;

 private:
  void RequestRoute(TableId table, NodeContext& ctx, uint32_t reloads = 0);
  void OnRouteReply(const RouteReply& reply, NodeContext& ctx);
  // Every statement waiting for `table`'s route ends with `error` (nothing was sent for it).
  void FailWaitingStatements(TableId table, const std::string& error, NodeContext& ctx);
  void OnInvalidate(const InvalidateCache& message, NodeContext& ctx);
  // Routes (or plans) `statement` with the cached route, or waits for a fill.
  void Dispatch(FrontendStatement& statement, NodeContext& ctx);
  void DispatchInsert(FrontendStatement& statement, const CachedTable& table, NodeContext& ctx);
  // Sends one write request and tracks it as a sub-request of `statement`.
  void SendWrite(FrontendStatement& statement, NodeId node, std::vector<RegionWrite> writes,
                 NodeContext& ctx);
  void DispatchQuery(FrontendStatement& statement, const CachedTable& table, NodeContext& ctx);
  void OnWriteReply(const WriteReply& reply, NodeContext& ctx);
  void OnScanResponse(ScanResponse& reply, NodeContext& ctx);
  // ---- DDL (frontend_ddl.cc) ----
  // Validates (a repartition) and submits DDL `key`, or waits for the table's route.
  void DispatchDdl(uint64_t key, NodeContext& ctx);
  // Sends DDL `key`'s task as call `key` (one more attempt) with a fresh deadline.
  void SubmitDdl(uint64_t key, NodeContext& ctx);
  // Ends DDL `key` with `status` (its History record, if any, and the trace) and forgets it.
  void FinishDdl(uint64_t key, DdlStatus status, uint64_t procedure, std::string error,
                 NodeContext& ctx);
  void OnDdlReply(const DdlReply& reply, NodeContext& ctx);
  // The DDLs waiting for `table`'s route; `found`: the fill found the table.
  void OnDdlRoute(TableId table, bool found, NodeContext& ctx);
  // A route load that failed (raced invalidations) rejects the DDLs waiting for it.
  void FailWaitingDdls(TableId table, const std::string& error, NodeContext& ctx);
  std::vector<uint64_t> DdlsWaitingForRoute(TableId table) const;
  std::optional<sim::SimTime> NextDdlDeadline() const;
  // Every submitted DDL call whose deadline is <= now is submitted again as a new call, or,
  // after the last attempt, ends with an unknown outcome.
  void ExpireDdls(NodeContext& ctx);
  void HashDdls(sim::Hasher& h) const;
  uint64_t NextCorr() { return next_corr_++; }

  friend struct sim::FingerprintSeam<Frontend>;

  NodeId id_;
  NodeId metasrv_;
  FrontendConfig config_;
  bool up_ = true;
  RouteCache routes_;
  StatementTable statements_;
  std::map<uint64_t, FrontendDdl> ddls_;  // by the corr of its DdlSubmit call
  uint64_t next_corr_ = 1;  // correlation ids of route fills, statement requests and DDL calls
};

}  // namespace repartsim::model
