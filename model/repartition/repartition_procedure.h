// The repartition parent procedure (docs/protocol.md 10.2, 10.3, 10.6, 10.7), type "Repartition":
//   RepartitionStart -> [UpdatePartitionMetadata] -> AllocateRegion{Build, Execute} ->
//   Dispatch -> Collect -> DeallocateRegion -> RepartitionEnd
// holding Catalog-R, Schema-R, Table-W and TableName locks. Each state lives in its own file
// (repartition_start.cc, update_partition_metadata.cc, allocate_region.cc, dispatch.cc,
// collect.cc, deallocate_region.cc; RepartitionEnd in repartition_procedure.cc; rollback.cc).
// The persistent context is stored with every persisted step; the volatile context (in-flight
// requests, the children of the last Dispatch) is lost in a metasrv crash. Rule switches select
// the real behaviour or the corrected one where they differ.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/ddl/metasrv_env.h"
#include "model/ddl/pending_requests.h"
#include "model/meta/ids.h"
#include "model/procedure/procedure.h"
#include "model/procedure/procedure_manager.h"
#include "model/repartition/plan.h"
#include "model/repartition/route_access.h"
#include "sim/result.h"

namespace repartsim::model {

class RepartitionProcedure {
 public:
  enum class State : uint8_t {
    kRepartitionStart,
    kUpdatePartitionMetadata,
    kAllocateRegionBuild,
    kAllocateRegionExecute,
    kDispatch,
    kCollect,
    kDeallocateRegion,
    kRepartitionEnd,
  };
  static constexpr std::string_view kType = "Repartition";
  // GreptimeDB's state names, by State: the one list that crash sites, `after:` steps and
  // the crash-matrix generator are built from (static_assert below the class).
  static constexpr std::array<std::string_view, 8> kStateNames = {"RepartitionStart",
                                                                  "UpdatePartitionMetadata",
                                                                  "AllocateRegion.Build",
                                                                  "AllocateRegion.Execute",
                                                                  "Dispatch",
                                                                  "Collect",
                                                                  "DeallocateRegion",
                                                                  "RepartitionEnd"};

  struct PersistentContext {
    TableId table;
    std::string table_name;
    std::vector<PartitionExpr> from_exprs;  // empty: unpartitioned source
    std::vector<PartitionExpr> to_exprs;
    std::optional<std::vector<std::string>> target_columns;  // ON COLUMNS / unpartitioned
    std::optional<PartitionMetadataUpdate> metadata_update;
    std::vector<PlanEntry> plans;
    std::vector<size_t> failed_plans;
    std::vector<size_t> unknown_plans;
    std::vector<size_t> succeeded_plans;
    std::vector<size_t> dispatch_plans;  // plans the next Dispatch submits (all at first)
    int64_t timeout_ms = 60000;
    uint64_t next_group_id = 1;

    friend bool operator==(const PersistentContext&, const PersistentContext&) = default;
  };

  RepartitionProcedure() = default;
  explicit RepartitionProcedure(PersistentContext context) : ctx_(std::move(context)) {}

  std::string state_name() const;
  std::string Dump() const;
  std::string DumpJson() const;  // Dump() without the memo
  static sim::Result<RepartitionProcedure> Load(std::string_view dump);
  Step Execute(MetasrvEnv& env, const ProcedureView& view);
  Step Rollback(MetasrvEnv& env, const ProcedureView& view);
  std::vector<LockKey> lock_keys() const;
  void Fingerprint(sim::Hasher& h) const;

  State state() const { return state_; }
  const PersistentContext& context() const { return ctx_; }

 private:
  // One function per state, each in its own file.
  Step RepartitionStart(MetasrvEnv& env);
  Step UpdatePartitionMetadata(MetasrvEnv& env);
  Step AllocateRegionBuild(MetasrvEnv& env);
  Step AllocateRegionExecute(MetasrvEnv& env);
  Step Dispatch(MetasrvEnv& env);
  Step Collect(MetasrvEnv& env, const ProcedureView& view);
  Step DeallocateRegion(MetasrvEnv& env);
  // One round of DropRegion requests to the leaders `route` names for `regions` (regions
  // without a route or leader are skipped; RegionNotFound counts as dropped). Returns the
  // wait step while replies are outstanding, else nullopt with the outcome in `outcome`.
  std::optional<Step> DropRegionsRound(MetasrvEnv& env, const TableRoute& route,
                                       const std::vector<RegionId>& regions,
                                       PendingRequests::Outcome& outcome);
  Step RepartitionEnd(MetasrvEnv& env);

  // Rollback helpers (rollback.cc).
  Step RollbackMetadata(MetasrvEnv& env);
  // True iff some plan's route already shows its target expressions (a group passed
  // ApplyStaging): the commit point of Rule::kRollForwardAfterCommit.
  bool PastCommitPoint(MetasrvEnv& env) const;

  State state_ = State::kRepartitionStart;
  PersistentContext ctx_;
  // Volatile context.
  PendingRequests requests_;
  std::vector<RegionId> drop_list_;  // rollback / deallocation: regions being dropped
  // AllocateRegion.Execute's route read before its CreateRegion calls, kept only while
  // Rule::kAllocateRouteUnderLock is off (GreptimeDB before #8115).
  std::optional<RouteSnapshot> allocate_read_;
};

static_assert(RepartitionProcedure::kStateNames.size() ==
              static_cast<size_t>(RepartitionProcedure::State::kRepartitionEnd) + 1);

}  // namespace repartsim::model
