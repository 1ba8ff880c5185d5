#include "model/datanode/region.h"

#include <algorithm>
#include <utility>

#include "sim/assert.h"

namespace repartsim::model {

std::string_view RegionStateName(RegionState state) {
  switch (state) {
    case RegionState::kFollower:
      return "Follower";
    case RegionState::kWritable:
      return "Leader(Writable)";
    case RegionState::kDowngrading:
      return "Leader(Downgrading)";
    case RegionState::kEnteringStaging:
      return "Leader(EnteringStaging)";
    case RegionState::kStaging:
      return "Leader(Staging)";
  }
  REPARTSIM_UNREACHABLE();
}

Region::Region(const RegionManifest& manifest, RegionState state)
    : version_(manifest),
      state_(state),
      last_entry_id_(manifest.flushed_entry_id),
      last_sequence_(manifest.flushed_sequence) {
  REPARTSIM_ASSERT(version_.schema != nullptr);
  REPARTSIM_ASSERT(state != RegionState::kStaging && state != RegionState::kEnteringStaging);
  RefreshCommittedExpr();
}

void Region::RefreshCommittedExpr() {
  committed_text_ = version_.ExprText();
  committed_version_ = version_.ExprVersionValue();
}

void Region::set_version(RegionManifest manifest) {
  REPARTSIM_ASSERT(manifest.region_id == version_.region_id);
  version_ = std::move(manifest);
  RefreshCommittedExpr();
}

void Region::EnterStaging(StagingInfo info) {
  REPARTSIM_ASSERT(state_ == RegionState::kWritable || state_ == RegionState::kEnteringStaging);
  staging_ = std::move(info);
  state_ = RegionState::kStaging;
}

void Region::ExitStaging() {
  REPARTSIM_ASSERT(staging_.has_value());
  staging_.reset();
  if (state_ == RegionState::kStaging) state_ = RegionState::kWritable;
}

void Region::ResumeStaging() {
  REPARTSIM_ASSERT(staging_suspended());
  state_ = RegionState::kStaging;
}

void Region::RestoreStaging(StagingInfo info, uint64_t staged_flushed_entry_id,
                            uint64_t staged_flushed_sequence) {
  REPARTSIM_ASSERT(memtable_.empty());
  REPARTSIM_ASSERT(state_ != RegionState::kStaging && state_ != RegionState::kEnteringStaging);
  staging_ = std::move(info);
  if (staged_flushed_entry_id > last_entry_id_) last_entry_id_ = staged_flushed_entry_id;
  if (staged_flushed_sequence > last_sequence_) last_sequence_ = staged_flushed_sequence;
}

uint64_t Region::ExpectedVersion() const {
  if (state_ == RegionState::kStaging) {
    REPARTSIM_ASSERT(staging_.has_value());
    return staging_->version;
  }
  return committed_version_;
}

const std::optional<PartitionExpr>& Region::FlushExpr(bool staging_tag) const {
  if (staging_tag && staging_ && staging_->directive == StagingDirective::kUpdatePartitionExpr) {
    return staging_->partition_expr;
  }
  return version_.partition_expr;
}

void Region::AppendMemtable(WriteBatchPtr batch) {
  REPARTSIM_ASSERT(batch != nullptr && !batch->rows.empty());
  REPARTSIM_ASSERT(batch->entry_id > last_entry_id_);
  REPARTSIM_ASSERT(batch->sequence_first > last_sequence_);
  last_entry_id_ = batch->entry_id;
  last_sequence_ = batch->sequence_last();
  memtable_rows_ += batch->rows.size();
  const TableSchema& table = schema();
  for (size_t i = 0; i < batch->rows.size(); ++i) {
    const SeqRowRef ref{&batch->rows[i], batch->sequence_first + i};
    memtable_sorted_.insert(std::upper_bound(memtable_sorted_.begin(), memtable_sorted_.end(), ref,
                                             [&table](const SeqRowRef& x, const SeqRowRef& y) {
                                               return RefBefore(table, x, y);
                                             }),
                            ref);
  }
  memtable_.push_back(std::move(batch));
}

void Region::ClearMemtable() {
  memtable_.clear();
  memtable_rows_ = 0;
  memtable_sorted_.clear();
}

void Region::Hash(sim::Hasher& h) const {
  version_.Hash(h);
  h.Add(static_cast<uint64_t>(state_));
  h.Add(staging_.has_value());
  if (staging_) staging_->Hash(h);
  h.Add(static_cast<uint64_t>(memtable_.size()));
  for (const WriteBatchPtr& b : memtable_) h.Add(b->content_hash);
  h.Add(last_entry_id_);
  h.Add(last_sequence_);
  h.Add(lease_deadline_.has_value());
  if (lease_deadline_) h.Add(lease_deadline_->ms);
  h.Add(applied_route_version_);
  if (downgraded_) h.Add(uint64_t{0xD0317AC7});  // only when set: keeps other fingerprints
  if (awaiting_lease_) h.Add(uint64_t{0xA3A17EA5});
  // compaction_requested_ is not hashed here (it is no data, and the trace's run.data line
  // hashes the datanodes): Datanode::HashCompactionRequests covers it where it matters.
}

}  // namespace repartsim::model
