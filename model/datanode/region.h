// An open region on a datanode (mito MitoRegion): its volatile role/state, the committed version
// loaded from its manifest (expression + files + flushed WAL position), the staging info while
// staging (docs/protocol.md section 10.5), the memtable (write batches after the flushed entry) and
// the lease deadline. Everything here is lost when the datanode crashes; the manifest, files and
// WAL are durable elsewhere. EnteringStaging never outlives a handler in this synchronous model.
// Under Rule::kDurableStaging the staging info may be kept while the region is a Follower or
// Downgrading ("suspended staging", see datanode.h): staging() is then set but state() is not
// kStaging, writes are refused by the role and flushes still go to the staging manifest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/datanode/object_store.h"
#include "model/datanode/row_merge.h"
#include "model/datanode/write_batch.h"
#include "model/meta/ids.h"
#include "model/node/staging_info.h"
#include "model/partition/expr.h"
#include "sim/assert.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

// mito RegionRoleState: Follower, or Leader(Writable | Downgrading | EnteringStaging | Staging).
enum class RegionState : uint8_t { kFollower, kWritable, kDowngrading, kEnteringStaging, kStaging };
// The real Debug form: "Follower", "Leader(Writable)", "Leader(Downgrading)", ...
std::string_view RegionStateName(RegionState state);

class Region {
 public:
  // Opens the region from its manifest in `state` with an empty memtable.
  Region(const RegionManifest& manifest, RegionState state);

  RegionId id() const { return version_.region_id; }
  const TableSchema& schema() const { return *version_.schema; }
  RegionState state() const { return state_; }
  // Leaving Follower ends `downgraded` (a rollback's lease or an upgrade made it lead again).
  void set_state(RegionState state) {
    state_ = state;
    if (state != RegionState::kFollower) downgraded_ = false;
  }
  // A Follower since a migration's DowngradeRegion: another peer may lead it and take writes
  // (Rule::kDowngradedRefusesReads). Volatile.
  bool downgraded() const { return downgraded_; }
  void set_downgraded() {
    REPARTSIM_ASSERT(state_ == RegionState::kFollower);
    downgraded_ = true;
  }
  bool is_writable_or_staging() const {
    return state_ == RegionState::kWritable || state_ == RegionState::kStaging;
  }
  bool is_flushable() const {
    return is_writable_or_staging() || state_ == RegionState::kDowngrading;
  }

  // The committed version: equal to the normal manifest in the object store.
  const RegionManifest& version() const { return version_; }
  void set_version(RegionManifest manifest);
  const std::string& committed_expr_text() const { return committed_text_; }
  uint64_t committed_expr_version() const { return committed_version_; }

  const std::optional<StagingInfo>& staging() const { return staging_; }
  // Writable -> Staging with `info`.
  void EnterStaging(StagingInfo info);
  // Drops the staging info; staged manifests stay in the object store. Staging -> Writable;
  // a suspended staging region keeps its role state.
  void ExitStaging();
  // Suspended staging (Follower or Downgrading with staging info) -> Staging.
  void ResumeStaging();
  // Reopen under Rule::kDurableStaging: restores the staging info of a region just opened from
  // its manifest (memtable empty, not Staging), and moves the WAL/sequence positions past the
  // staged flushes so replay skips the entries they already hold.
  void RestoreStaging(StagingInfo info, uint64_t staged_flushed_entry_id,
                      uint64_t staged_flushed_sequence);
  bool staging_suspended() const { return staging_.has_value() && state_ != RegionState::kStaging; }
  // The version the write fence compares against: the staging directive's version while
  // Staging, else the committed version (region.rs expected_partition_expr_version).
  uint64_t ExpectedVersion() const;
  // The expression a flush records on its file: the staging expression under
  // UpdatePartitionExpr (also while suspended) when `staging_tag` (Rule::kStagingFlushExpr,
  // maybe_staging_partition_expr_str), else the committed one (before GreptimeDB #7461 a
  // flush always read the committed metadata).
  const std::optional<PartitionExpr>& FlushExpr(bool staging_tag) const;

  const std::vector<WriteBatchPtr>& memtable() const { return memtable_; }
  uint64_t memtable_rows() const { return memtable_rows_; }
  // Every memtable row in RefBefore order (row_merge.h), kept sorted as batches are appended;
  // the refs point into the shared, immutable batches, so a copy of the region stays valid.
  const std::vector<SeqRowRef>& memtable_sorted() const { return memtable_sorted_; }
  void AppendMemtable(WriteBatchPtr batch);
  void ClearMemtable();

  uint64_t last_entry_id() const { return last_entry_id_; }
  uint64_t last_sequence() const { return last_sequence_; }
  // Later writes number after `sequence` (an admission sequence of adopted files).
  void AdvanceSequence(uint64_t sequence) {
    if (sequence > last_sequence_) last_sequence_ = sequence;
  }
  void set_last_entry_id(uint64_t id) { last_entry_id_ = id; }

  const std::optional<sim::SimTime>& lease_deadline() const { return lease_deadline_; }
  void set_lease_deadline(std::optional<sim::SimTime> t) { lease_deadline_ = t; }

  // The newest table route version this region has seen in a lease or an instruction
  // (volatile; Rule::kVersionedLeases ignores leases older than it).
  uint64_t applied_route_version() const { return applied_route_version_; }
  void NoteRouteVersion(uint64_t version) {
    if (version > applied_route_version_) applied_route_version_ = version;
  }

  // An upgraded migration candidate that no leader lease has named yet: it refuses writes
  // (Rule::kUpgradeAwaitsLease). Volatile.
  bool awaiting_lease() const { return awaiting_lease_; }
  void set_awaiting_lease(bool awaiting) { awaiting_lease_ = awaiting; }

  // mito2 schedules an automatic compaction when a flush of the region finishes
  // (handle_flush_finished -> schedule_compaction), never on open, catch-up or a timer: the
  // background compaction runs only on a region with this flag, and clears it. Volatile; not
  // in Hash (Datanode::HashCompactionRequests).
  bool compaction_requested() const { return compaction_requested_; }
  void set_compaction_requested(bool requested) { compaction_requested_ = requested; }

  void Hash(sim::Hasher& h) const;

 private:
  void RefreshCommittedExpr();
  friend struct sim::FingerprintSeam<Region>;

  RegionManifest version_;
  std::string committed_text_;
  uint64_t committed_version_ = 0;
  RegionState state_ = RegionState::kFollower;
  std::optional<StagingInfo> staging_;
  std::vector<WriteBatchPtr> memtable_;
  uint64_t memtable_rows_ = 0;
  std::vector<SeqRowRef> memtable_sorted_;  // derived from memtable_, not hashed
  uint64_t last_entry_id_ = 0;
  uint64_t last_sequence_ = 0;
  std::optional<sim::SimTime> lease_deadline_;
  uint64_t applied_route_version_ = 0;
  bool compaction_requested_ = false;
  bool downgraded_ = false;
  bool awaiting_lease_ = false;
};

}  // namespace repartsim::model
