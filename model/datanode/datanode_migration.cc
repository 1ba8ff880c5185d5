// The datanode side of region migration (docs/protocol.md section 13): the candidate's open as a
// Follower, the leader's downgrade and the candidate's upgrade (GreptimeDB's
// src/datanode/src/heartbeat/handler/{open,downgrade,upgrade}_region.rs and mito2's
// set_region_role_state_gracefully, handle_catchup.rs), with a local WAL: the downgrade's flush
// puts every accepted row in SSTs and the upgrade replays nothing.
#include "model/datanode/datanode.h"
#include "model/protocol/rules.h"
#include "sim/assert.h"

namespace repartsim::model {

Reply Datanode::HandleOpenCandidate(RegionId region_id, const ObjectStore& store) {
  REPARTSIM_ASSERT(up_);
  if (regions_.count(region_id) != 0) return Reply::Ok();
  const RegionManifest* manifest = store.Manifest(region_id);
  if (manifest == nullptr) return RegionNotFoundReply(region_id);
  OpenFromManifest(*manifest, RegionState::kFollower, /*restore_staging=*/nullptr,
                   /*faults=*/nullptr, /*fail_closed=*/false, /*skip_replay=*/true);
  REPARTSIM_ASSERT(FindRegion(region_id)->memtable().empty());
  return Reply::Ok();
}

Reply Datanode::HandleDowngradeRegion(RegionId region_id, ObjectStore& store, CrashHook& crash,
                                      const Protocol& protocol, uint64_t& last_entry_id) {
  REPARTSIM_ASSERT(up_);
  Region* region = FindMutable(region_id);
  if (region == nullptr) {
    // GreptimeDB: a region the server is still registering (a background open) has no engine
    // role yet, so is_region_leader() says None and the reply is exists=false.
    // A failed open (fail-closed-replay) is retried at the next heartbeat tick: also opening.
    if (protocol.On(Rule::kDowngradeWaitsForOpen) &&
        (pending_opens_.count(region_id) != 0 || failed_opens_.count(region_id) != 0)) {
      return OpeningReply(region_id);
    }
    return RegionNotFoundReply(region_id);
  }
  REPARTSIM_ASSERT(region->state() != RegionState::kEnteringStaging);
  // GreptimeDB ignores the flush of a region that is not writable and answers at once; a
  // leader reopened by a restart is a Follower until its lease comes, with its WAL's rows in
  // its memtable only, so the candidate would be upgraded without them.
  if (region->state() == RegionState::kFollower && !region->memtable().empty() &&
      protocol.On(Rule::kDowngradeWaitsForOpen)) {
    return OpeningReply(region_id);
  }
  if (region->state() != RegionState::kFollower) {
    // mito2 region.rs set_region_role_state_gracefully(DowngradingLeader): from
    // Leader(Staging) it calls exit_staging(): the staging info is dropped, staged data is not
    // merged. Under durable staging the staging directory goes too (its invariant: non-empty
    // exactly while the region is staging).
    if (region->staging().has_value()) {
      region->ExitStaging();
      if (protocol.On(Rule::kDurableStaging)) store.ClearStaging(region_id);
    }
    region->set_state(RegionState::kDowngrading);
    Reply flushed = HandleFlush(region_id, store, crash, protocol);
    if (!flushed.ok()) return flushed;  // kCrashed included
    region->set_state(RegionState::kFollower);
  }
  REPARTSIM_ASSERT(region->state() == RegionState::kFollower);
  region->set_downgraded();
  last_entry_id = region->last_entry_id();
  return Reply::Ok();
}

Reply Datanode::HandleUpgradeRegion(RegionId region_id, const ObjectStore& store, sim::SimTime now,
                                    const Protocol& protocol) {
  REPARTSIM_ASSERT(up_);
  Region* region = FindMutable(region_id);
  if (region == nullptr) return RegionNotFoundReply(region_id);
  if (region->state() == RegionState::kWritable) return Reply::Ok();  // already upgraded
  const RegionManifest* manifest = store.Manifest(region_id);
  if (manifest == nullptr) return RegionNotFoundReply(region_id);
  // reopen_region_if_needed: the manifest changed since the open (the leader's flushes), or the
  // memtable is not empty.
  if (manifest->manifest_version != region->version().manifest_version ||
      !region->memtable().empty()) {
    regions_.erase(region_id);
    OpenFromManifest(*manifest, RegionState::kFollower, /*restore_staging=*/nullptr,
                     /*faults=*/nullptr, /*fail_closed=*/false, /*skip_replay=*/true);
    region = FindMutable(region_id);
    REPARTSIM_ASSERT(region != nullptr);
  }
  REPARTSIM_ASSERT(region->version().manifest_version == manifest->manifest_version);
  // set_role(Leader) + set_role_state_gracefully(Leader); the alive keeper counts its lease.
  region->set_state(RegionState::kWritable);
  region->set_lease_deadline(now + region_lease_);
  // Until a lease names it the leader, the route may still name the old one (the reply or
  // UpdateMetadataUpgrade may never come): a frontend whose route predates the old leader's
  // term must not write here.
  if (protocol.On(Rule::kUpgradeAwaitsLease)) region->set_awaiting_lease(true);
  return Reply::Ok();
}

}  // namespace repartsim::model
