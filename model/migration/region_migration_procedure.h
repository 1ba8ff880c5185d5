// The region migration procedure (docs/protocol.md section 13), type "RegionMigration",
// GreptimeDB's src/meta-srv/src/procedure/region_migration*.rs at 7fd0a7b, for one region:
//   RegionMigrationStart -> OpenCandidateRegion -> PreFlushRegion -> UpdateMetadataDowngrade ->
//   DowngradeLeaderRegion -> UpgradeCandidateRegion -> UpdateMetadataUpgrade ->
//   CloseDowngradedRegion -> RegionMigrationEnd
// with UpdateMetadataRollback -> RegionMigrationAbort when the candidate cannot be upgraded or
// the downgrade exceeded the budget. Procedure locks: Catalog-R, Schema-R and Region-W on the
// region, for life; the table lock only as a dynamic lock around each route write
// (UpdateMetadata Downgrade/Upgrade/Rollback and the rollback). Only RegionMigrationStart
// persists its successor (status executing(true)); every later state is re-run from
// OpenCandidateRegion after a metasrv crash. The volatile context (budget start, the leader's
// lease deadline, the downgrade's last entry id, retries, the round in flight) is dropped on a
// crash. Rollback (rollback_inner): a Downgrading route of the region goes back to None.
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
#include "sim/result.h"
#include "sim/time.h"

namespace repartsim::model {

class RegionMigrationProcedure {
 public:
  enum class State : uint8_t {
    kRegionMigrationStart,
    kOpenCandidateRegion,
    kPreFlushRegion,
    kUpdateMetadataDowngrade,
    kDowngradeLeaderRegion,
    kUpgradeCandidateRegion,
    kUpdateMetadataUpgrade,
    kCloseDowngradedRegion,
    kUpdateMetadataRollback,
    kRegionMigrationEnd,
    kRegionMigrationAbort,
  };
  static constexpr std::string_view kType = "RegionMigration";
  static constexpr std::array<std::string_view, 11> kStateNames = {
      "RegionMigrationStart",    "OpenCandidateRegion",   "PreFlushRegion",
      "UpdateMetadataDowngrade", "DowngradeLeaderRegion", "UpgradeCandidateRegion",
      "UpdateMetadataUpgrade",   "CloseDowngradedRegion", "UpdateMetadataRollback",
      "RegionMigrationEnd",      "RegionMigrationAbort"};
  // The region lease (3 heartbeats + 1 s): the old leader's lease deadline, and the least
  // OpenRegion timeout.
  static constexpr sim::Duration kRegionLease = sim::Seconds(10);
  // downgrade_region_with_retry / upgrade_region_with_retry: 3 optimistic tries, 500 ms apart.
  static constexpr uint32_t kOptimisticTries = 3;
  static constexpr int64_t kDefaultTimeoutMs = 10000;  // region_migration.rs default_timeout
  static constexpr sim::Duration kRetryInterval = sim::Ms(500);

  // PersistentContext{from_peer, to_peer, region_ids, timeout, trigger_reason}: one region here.
  struct PersistentContext {
    NodeId from_peer;
    NodeId to_peer;
    RegionId region;
    int64_t timeout_ms = kDefaultTimeoutMs;
    std::string trigger_reason = "Manual";

    friend bool operator==(const PersistentContext&, const PersistentContext&) = default;
  };

  RegionMigrationProcedure() = default;
  explicit RegionMigrationProcedure(PersistentContext context) : ctx_(std::move(context)) {}

  std::string state_name() const;
  std::string Dump() const;
  static sim::Result<RegionMigrationProcedure> Load(std::string_view dump);
  Step Execute(MetasrvEnv& env, const ProcedureView& view);
  Step Rollback(MetasrvEnv& env, const ProcedureView& view);
  std::vector<LockKey> lock_keys() const;
  void Fingerprint(sim::Hasher& h) const;

  State state() const { return state_; }
  const PersistentContext& context() const { return ctx_; }
  TableId table() const { return ctx_.region.table_id(); }

 private:
  Step MigrationStart(MetasrvEnv& env);
  Step OpenCandidateRegion(MetasrvEnv& env);
  Step PreFlushRegion(MetasrvEnv& env);
  Step UpdateMetadataDowngrade(MetasrvEnv& env);
  Step DowngradeLeaderRegion(MetasrvEnv& env);
  Step UpgradeCandidateRegion(MetasrvEnv& env);
  Step UpdateMetadataUpgrade(MetasrvEnv& env);
  Step CloseDowngradedRegion(MetasrvEnv& env);
  Step UpdateMetadataRollback(MetasrvEnv& env);
  // Sets leader_state None on the region's route if it is not None (rollback_downgraded_region,
  // rollback_inner); nullopt when done, else the step to return (lock wait, CAS retry).
  std::optional<Step> ClearLeaderState(MetasrvEnv& env, bool only_downgrading);

  // The remaining budget (next_operation_timeout); nullopt once it is spent.
  std::optional<sim::Duration> Remaining(MetasrvEnv& env);
  // Moves to `next` (not persisted) and resets the per-state volatile parts.
  Step Goto(State next);
  // DowngradeLeaderRegion's slow path: sleep until the leader's lease deadline, then upgrade.
  Step LeaseSleep(MetasrvEnv& env, const std::string& why);
  // Sends `op` for the region to `node` as a mailbox instruction waited for until `deadline`.
  Step SendOne(MetasrvEnv& env, NodeId node, RegionOp op, sim::SimTime deadline);

  State state_ = State::kRegionMigrationStart;
  PersistentContext ctx_;
  // Volatile context.
  std::optional<sim::SimTime> started_at_;             // the budget's origin in this execution
  std::optional<sim::SimTime> leader_lease_deadline_;  // set by DowngradeLeaderRegion
  std::optional<uint64_t> last_entry_id_;              // the downgrade's reply
  PendingRequests requests_;
  uint32_t tries_ = 0;                     // tries of the current state's instruction
  std::optional<sim::SimTime> resume_at_;  // the end of a retry interval or of the lease sleep
  bool lease_sleep_ = false;               // resume_at_ is the downgrade's lease-deadline sleep
};

static_assert(RegionMigrationProcedure::kStateNames.size() ==
              static_cast<size_t>(RegionMigrationProcedure::State::kRegionMigrationAbort) + 1);

}  // namespace repartsim::model
