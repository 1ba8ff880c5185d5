// MetasrvEnv: the environment a procedure step runs in (the Env concept of
// ProcedureManager): the clock, crash points, the Chooser, the metasrv's durable key-value
// store, region requests to datanodes (replies land in the procedure's inbox, keyed by
// correlation id), and cache-invalidation broadcasts. Built per step over the metasrv's
// DdlContext and the step's NodeContext; never stored.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/ddl/ddl_context.h"
#include "model/meta/kv_store.h"
#include "model/node/message_fwd.h"
#include "model/node/node_context.h"
#include "model/procedure/procedure.h"
#include "sim/time.h"

namespace repartsim::model {

class MetasrvEnv {
 public:
  MetasrvEnv(DdlContext& ddl, NodeContext& ctx, ProcedureId current)
      : ddl_(ddl), ctx_(ctx), current_(current) {}

  sim::SimTime Now() const { return ctx_.now(); }
  bool CrashPoint(std::string_view site) { return ctx_.ShouldCrash(site); }
  uint32_t Choose(std::string_view label, uint32_t option_count) {
    return ctx_.Choose(label, option_count);
  }
  void TraceProcedure(ProcedureId id, std::string_view what);

  KvStore& kv() { return ddl_.mutable_kv(); }
  // The metasrv's cached decode of the route stored at `key` (Metasrv::DecodeRoute).
  const TableRoute& DecodeRoute(const std::string& key, const std::string& bytes) const {
    return ddl_.DecodeRoute(key, bytes);
  }
  const Protocol& protocol() const { return ctx_.protocol; }
  NodeContext& ctx() { return ctx_; }
  ProcedureId current() const { return current_; }

  // Sends `op` for `region` to datanode `node` (logged as `ms.region_request`); returns the
  // correlation id its reply carries.
  uint64_t SendRegionRequest(NodeId node, RegionId region, RegionOp op);
  // Logs `ms.region_request` for one region of a batch, when the state addresses it.
  void NoteRegionRequest(NodeId node, RegionId region, const RegionOp& op);
  // Sends one request naming every item (one mailbox instruction per datanode; not logged:
  // NoteRegionRequest logged each region); returns its correlation id. REQUIRES: items
  // non-empty, of one op kind, of one table.
  uint64_t SendRegionRequests(NodeId node, std::vector<RegionInstruction> items);
  // True iff datanode `node`'s heartbeat stream is connected (the mailbox has a pusher for it).
  bool StreamConnected(NodeId node) const { return ctx_.StreamConnected(node); }
  // Replies received so far for the running procedure.
  Inbox& inbox() { return ddl_.InboxOf(current_); }
  // Forgets a correlation id (its reply, if it arrives later, is ignored).
  void Forget(uint64_t corr) { ddl_.ForgetRequest(current_, corr); }
  // Broadcasts InvalidateCache for `table` to every frontend (fire-and-forget unless
  // Rule::kAckedInvalidation) and bumps the table's invalidation epoch.
  void InvalidateTable(TableId table) { ddl_.InvalidateTable(table, ctx_); }
  // The mailbox/RPC timeout after which missing replies count as a timeout.
  sim::Duration request_timeout() const { return ddl_.request_timeout(); }
  // Every datanode of the cluster (peer selection for new regions).
  const std::vector<NodeId>& datanodes() const { return ddl_.datanodes(); }
  // Regions that may hold a lease before any route lists them (MemoryRegionKeeper), with the
  // procedure holding each registration.
  std::map<RegionId, ProcedureId>& operating_regions() { return ddl_.operating_regions(); }
  std::map<std::pair<NodeId, RegionId>, ProcedureId>& follower_regions() {
    return ddl_.follower_regions();
  }
  // GreptimeDB's dynamic `TableLock::Write(table)` (procedure_ctx.provider.acquire_lock) for
  // the running procedure: true iff now held (re-entrant). On false the step waits for a
  // release (Step::Wait(kNever)); the runner wakes it.
  bool TryLockTable(TableId table);
  void UnlockTable(TableId table);

 private:
  DdlContext& ddl_;
  NodeContext& ctx_;
  ProcedureId current_;
};

// A dynamic table write lock held for the rest of one step (the scope of GreptimeDB's
// `_guard`), or across steps when the step awaits a round trip with the guard alive (Keep()).
class DynamicTableLock {
 public:
  DynamicTableLock(MetasrvEnv& env, TableId table)
      : env_(env), table_(table), held_(env.TryLockTable(table)) {}
  ~DynamicTableLock() {
    if (held_ && !keep_) env_.UnlockTable(table_);
  }
  DynamicTableLock(const DynamicTableLock&) = delete;
  DynamicTableLock& operator=(const DynamicTableLock&) = delete;

  bool held() const { return held_; }
  // The step returns while still holding the lock (it waits for replies under it).
  void Keep() { keep_ = true; }

 private:
  MetasrvEnv& env_;
  TableId table_;
  bool held_ = false;
  bool keep_ = false;
};

}  // namespace repartsim::model
