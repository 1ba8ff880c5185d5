// Lease handling of Datanode (docs/protocol.md sections 7, 10.5) and crash/reopen, with the
// durable-staging exits of datanode.h: suspension on Follower/Downgrading/expiry, resumption on
// a StagingLeader lease, and the merge of staged flushes when a Leader lease ends staging.
#include <algorithm>
#include <utility>

#include "model/datanode/datanode.h"
#include "model/protocol/rules.h"
#include "sim/assert.h"

namespace repartsim::model {

void Datanode::DemoteOutOfStaging(Region& region, RegionState state, const Protocol& protocol) {
  // greptime: exit_staging, the staging info is dropped and the staged manifests stay hidden.
  // Durable staging: the staging info stays (suspended) so a StagingLeader lease can resume it.
  if (region.state() == RegionState::kStaging && !protocol.On(Rule::kDurableStaging)) {
    region.ExitStaging();
  }
  region.set_state(state);
}

void Datanode::EndStagingByLease(Region& region, const Protocol& protocol, ObjectStore* store) {
  if (!region.staging().has_value()) return;
  if (!protocol.On(Rule::kDurableStaging)) {
    region.ExitStaging();
    return;
  }
  REPARTSIM_ASSERT_MSG(store != nullptr,
                       "durable staging: a Leader lease that ends staging needs the object store");
  // The memtable holds only rows accepted under the staging directive (EnterStaging flushed
  // first), so it is flushed as a staged file under the staging expression.
  const bool flushed = FlushMemtable(region, *store, /*crash=*/nullptr, protocol);
  REPARTSIM_ASSERT(flushed);
  std::vector<FileId> staged = OwnStagedFiles(region, *store);
  uint64_t entry = 0;
  uint64_t sequence = 0;
  if (const std::vector<StagingAction>* actions = store->Staging(region.id())) {
    for (const StagingAction& a : *actions) {
      entry = std::max(entry, a.flushed_entry_id);
      sequence = std::max(sequence, a.flushed_sequence);
    }
  }
  if (!staged.empty() || entry > region.version().flushed_entry_id) {
    CommitManifestEdit(region, *store, protocol, [&](RegionManifest& m) {
      m.files.insert(staged.begin(), staged.end());
      m.flushed_entry_id = std::max(m.flushed_entry_id, entry);
      m.flushed_sequence = std::max(m.flushed_sequence, sequence);
    });
  }
  store->ClearStaging(region.id());
  region.ExitStaging();
}

bool Datanode::ApplyLease(RegionId region_id, RegionRole role, sim::SimTime deadline,
                          const Protocol& protocol, ObjectStore& store, uint64_t route_version) {
  REPARTSIM_ASSERT(up_);
  Region* region = FindMutable(region_id);
  if (region == nullptr) return false;
  // greptime (alive_keeper.rs): every lease is applied, whatever it was computed from.
  if (protocol.On(Rule::kVersionedLeases)) {
    if (route_version < region->applied_route_version()) return false;
    region->NoteRouteVersion(route_version);
  }
  region->set_lease_deadline(deadline);
  // A leader lease: the route names this peer (Rule::kUpgradeAwaitsLease).
  if (role == RegionRole::kLeader || role == RegionRole::kStagingLeader) {
    region->set_awaiting_lease(false);
  }
  switch (role) {
    case RegionRole::kStagingLeader:
      // Ignored: a region enters staging only through EnterStaging. With the P11 rule a
      // demoted region is promoted back so the group can proceed: into Staging when durable
      // staging kept (or a reopen restored) its staging info, else Writable. Demoted: a
      // Follower, or Downgrading, which a rolled-back migration leaves until a Leader lease
      // arrives, and a group that set Staging in between would never see.
      if (protocol.On(Rule::kLeasePromotesStaging) &&
          (region->state() == RegionState::kFollower ||
           region->state() == RegionState::kDowngrading)) {
        if (region->staging_suspended()) {
          region->ResumeStaging();
        } else {
          region->set_state(RegionState::kWritable);
        }
      }
      return true;
    case RegionRole::kLeader:
      EndStagingByLease(*region, protocol, &store);
      region->set_state(RegionState::kWritable);
      if (region->version().awaiting_commit) {
        // The route no longer says Staging: the group committed (or rolled back).
        CommitManifestEdit(*region, store, protocol,
                           [](RegionManifest& m) { m.awaiting_commit = false; });
      }
      return true;
    case RegionRole::kFollower:
      DemoteOutOfStaging(*region, RegionState::kFollower, protocol);
      return true;
    case RegionRole::kDowngradingLeader:
      DemoteOutOfStaging(*region, RegionState::kDowngrading, protocol);
      return true;
  }
  REPARTSIM_UNREACHABLE();
}

bool Datanode::ApplyLease(RegionId region_id, RegionRole role, sim::SimTime deadline,
                          const Protocol& protocol) {
  REPARTSIM_ASSERT(up_);
  Region* region = FindMutable(region_id);
  if (region == nullptr) return false;
  if (role == RegionRole::kLeader && region->staging().has_value() &&
      protocol.On(Rule::kDurableStaging)) {
    REPARTSIM_ASSERT_MSG(false, "durable staging: call ApplyLease with the object store");
  }
  ObjectStore unused;
  return ApplyLease(region_id, role, deadline, protocol, unused);
}

void Datanode::NoteRouteVersion(RegionId region_id, uint64_t route_version) {
  REPARTSIM_ASSERT(up_);
  if (Region* region = FindMutable(region_id)) region->NoteRouteVersion(route_version);
}

std::vector<RegionId> Datanode::ExpireLeases(sim::SimTime now, const Protocol& protocol) {
  REPARTSIM_ASSERT(up_);
  std::vector<RegionId> demoted;
  for (auto& [id, region] : regions_) {
    if (!region.lease_deadline() || *region.lease_deadline() > now) continue;
    DemoteOutOfStaging(region, RegionState::kFollower, protocol);
    region.set_lease_deadline(std::nullopt);
    demoted.push_back(id);
  }
  return demoted;
}

std::vector<RegionId> Datanode::ExpireLeases(sim::SimTime now) {
  return ExpireLeases(now, Protocol::Greptime());
}

std::optional<sim::SimTime> Datanode::NextLeaseDeadline() const {
  std::optional<sim::SimTime> earliest;
  for (const auto& [id, region] : regions_) {
    if (!region.lease_deadline()) continue;
    if (!earliest || *region.lease_deadline() < *earliest) earliest = region.lease_deadline();
  }
  return earliest;
}

void Datanode::Crash() {
  up_ = false;
  regions_.clear();
  failed_opens_.clear();
  pending_opens_.clear();
}

void Datanode::OpenHosted(RegionId id, const ObjectStore& store, const Protocol& protocol,
                          ReplayFaults* faults) {
  const RegionManifest* manifest = store.Manifest(id);
  if (manifest == nullptr) return;
  // greptime: staging is not restored (manager.rs: "TODO(weny): open the staging manifest if
  // exists"). Durable staging restores it, suspended, from the staging directory.
  const std::vector<StagingAction>* staged =
      protocol.On(Rule::kDurableStaging) ? store.Staging(id) : nullptr;
  OpenFromManifest(*manifest, RegionState::kFollower, staged, faults,
                   protocol.On(Rule::kFailClosedReplay));
}

void Datanode::Reopen(const ObjectStore& store, const Protocol& protocol, ReplayFaults* faults) {
  REPARTSIM_ASSERT(!up_);
  REPARTSIM_ASSERT(regions_.empty() && failed_opens_.empty());
  up_ = true;
  const std::set<RegionId> hosted = hosted_;
  for (RegionId id : hosted) OpenHosted(id, store, protocol, faults);
}

void Datanode::ReopenInBackground(sim::SimTime first_open) {
  REPARTSIM_ASSERT(!up_);
  REPARTSIM_ASSERT(regions_.empty() && failed_opens_.empty() && pending_opens_.empty());
  up_ = true;
  pending_opens_ = hosted_;
  next_open_ = first_open;
}

std::optional<sim::SimTime> Datanode::NextPendingOpen() const {
  if (pending_opens_.empty()) return std::nullopt;
  return next_open_;
}

std::optional<RegionId> Datanode::OpenNextPending(const ObjectStore& store,
                                                  const Protocol& protocol, ReplayFaults* faults,
                                                  sim::SimTime next) {
  REPARTSIM_ASSERT(up_ && !pending_opens_.empty());
  const RegionId id = *pending_opens_.begin();
  pending_opens_.erase(pending_opens_.begin());
  next_open_ = next;
  // Opening, closing or dropping a region takes it out of the queue.
  REPARTSIM_ASSERT(hosted_.count(id) != 0 && regions_.count(id) == 0);
  OpenHosted(id, store, protocol, faults);
  if (regions_.count(id) == 0) return std::nullopt;
  return id;
}

std::vector<RegionId> Datanode::RetryFailedOpens(const ObjectStore& store, const Protocol& protocol,
                                                 ReplayFaults* faults) {
  REPARTSIM_ASSERT(up_);
  std::vector<RegionId> opened;
  const std::set<RegionId> failed = failed_opens_;
  for (RegionId id : failed) {
    REPARTSIM_ASSERT(regions_.count(id) == 0);
    failed_opens_.erase(id);  // kept only if it fails again
    OpenHosted(id, store, protocol, faults);
    if (regions_.count(id) != 0) opened.push_back(id);
  }
  return opened;
}

void Datanode::Reopen(const ObjectStore& store) { Reopen(store, Protocol::Greptime()); }

}  // namespace repartsim::model
