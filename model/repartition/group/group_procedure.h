// The repartition group sub-procedure (docs/protocol.md section 10.4), type "RepartitionGroup", one
// per connected component of a repartition:
//   RepartitionStart -> [SyncRegion] -> ApplyStaging -> EnterStagingRegion -> RemapManifest ->
//   ApplyStagingManifest -> ExitStaging -> RepartitionEnd
// holding Catalog-R, Schema-R and Region-W on its sources. Instructions travel as mailbox
// messages (delayed, dropped or duplicated by the network) and replies follow the outcome
// table of docs/protocol.md section 10.1. No rollback: a non-retryable error or an exhausted retry
// budget fails the group, and groups are never recovered after a metasrv crash (the parent
// re-dispatches). Every round of instructions first checks the group deadline (DDL TIMEOUT from
// group creation): ExceededDeadline is not retryable. A round sends one instruction per datanode
// and waits for its reply until the group deadline (GreptimeDB's next_operation_timeout). One
// file per state under model/repartition/group/.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/ddl/metasrv_env.h"
#include "model/ddl/pending_requests.h"
#include "model/meta/ids.h"
#include "model/meta/region_route.h"
#include "model/procedure/procedure.h"
#include "model/procedure/procedure_manager.h"
#include "model/repartition/plan.h"
#include "sim/result.h"

namespace repartsim::model {

class RepartitionGroupProcedure {
 public:
  enum class State : uint8_t {
    kRepartitionStart,
    kSyncRegion,
    kApplyStaging,
    kEnterStagingRegion,
    kRemapManifest,
    kApplyStagingManifest,
    kExitStaging,
    kRepartitionEnd,
  };
  static constexpr std::string_view kType = "RepartitionGroup";
  // GreptimeDB's state names, by State: the one list that crash sites, `after:` steps and
  // the crash-matrix generator are built from (static_assert below the class).
  static constexpr std::array<std::string_view, 8> kStateNames = {
      "RepartitionStart", "SyncRegion",           "ApplyStaging", "EnterStagingRegion",
      "RemapManifest",    "ApplyStagingManifest", "ExitStaging",  "RepartitionEnd"};

  struct PrepareResult {
    std::vector<RegionRoute> source_routes;
    std::vector<RegionRoute> target_routes;
    RegionId central_region;
    NodeId central_datanode;

    friend bool operator==(const PrepareResult&, const PrepareResult&) = default;
  };

  struct PersistentContext {
    uint64_t group_id = 0;
    uint64_t parent = 0;
    size_t plan_index = 0;
    TableId table;
    std::vector<SourceDescriptor> sources;
    std::vector<TargetDescriptor> targets;
    std::map<RegionId, std::vector<RegionId>> region_mapping;
    bool sync_region = false;  // metric engine only
    std::vector<RegionId> allocated;
    std::vector<RegionId> pending_deallocate;
    int64_t timeout_ms = 60000;
    int64_t created_at_ms = 0;  // the group Context's creation: the deadline's origin
    std::optional<PrepareResult> prepare;
    bool remapped = false;  // staging_manifest_paths recorded

    friend bool operator==(const PersistentContext&, const PersistentContext&) = default;
  };

  RepartitionGroupProcedure() = default;
  explicit RepartitionGroupProcedure(PersistentContext context) : ctx_(std::move(context)) {}

  std::string state_name() const;
  std::string Dump() const;
  std::string DumpJson() const;  // Dump() without the memo
  static sim::Result<RepartitionGroupProcedure> Load(std::string_view dump);
  Step Execute(MetasrvEnv& env, const ProcedureView& view);
  std::vector<LockKey> lock_keys() const;
  void Fingerprint(sim::Hasher& h) const;

  State state() const { return state_; }
  const PersistentContext& context() const { return ctx_; }

 private:
  Step RepartitionStart(MetasrvEnv& env);
  Step SyncRegion(MetasrvEnv& env);
  Step ApplyStaging(MetasrvEnv& env);
  Step EnterStagingRegion(MetasrvEnv& env);
  Step RemapManifest(MetasrvEnv& env);
  Step ApplyStagingManifest(MetasrvEnv& env);
  Step ExitStaging(MetasrvEnv& env);

  // ExceededDeadline when the group's budget is spent, else nullopt.
  std::optional<Step> CheckDeadline(MetasrvEnv& env) const;
  sim::SimTime deadline() const { return sim::SimTime{ctx_.created_at_ms + ctx_.timeout_ms}; }
  bool IsPendingDeallocate(RegionId region) const;
  // The leader of `region` the group captured at RepartitionStart (GreptimeDB's G0 snapshot of
  // the source and target routes), else its current leader in the stored route, if any.
  std::optional<NodeId> LeaderOf(MetasrvEnv& env, RegionId region) const;
  // Sends `op` for `region` to LeaderOf(region); an Unexpected error step when there is none.
  std::optional<Step> SendToLeader(MetasrvEnv& env, RegionId region, RegionOp op);
  // The end of a two-phase state's request round (EnterStagingRegion, ApplyStagingManifest):
  // waits, fails, or with every reply Ok goes from phase 0 to phase 1 (not persisted) and from
  // phase 1 to `next` (persisted).
  Step FinishTwoPhaseRound(MetasrvEnv& env, State next);
  // requests_.FailureStep(outcome), except for an abort while a region the group captured at
  // its start is led by another peer in the stored route (a migration moved it): under
  // Rule::kFenceCapturedPeers the state retries (and sends to the current leader), else the
  // error says so with kStaleCapturedPeerError (model/node/refusal.h): the checker's INV-AVAIL.
  Step RoundFailed(MetasrvEnv& env, PendingRequests::Outcome outcome) const;

  State state_ = State::kRepartitionStart;
  PersistentContext ctx_;
  // Volatile context.
  PendingRequests requests_;
  uint8_t phase_ = 0;  // sub-step of EnterStagingRegion / ApplyStagingManifest
  // ApplyStagingManifest computes its mailbox timeout once, before the non-central round, and
  // waits that long for the central region too (apply_staging_manifest.rs).
  sim::Duration apply_timeout_{0};
};

static_assert(RepartitionGroupProcedure::kStateNames.size() ==
              static_cast<size_t>(RepartitionGroupProcedure::State::kRepartitionEnd) + 1);

}  // namespace repartsim::model
