// A datanode (mito engine + region server): its open regions (ordered by RegionId), a durable
// WAL per region, and a durable registry of the regions it hosts (reopened on restart, standing
// in for the __dn_table keys). Handlers are synchronous and run atomically inside one simulation
// event, except at named crash points between durable writes: when the CrashHook fires the
// handler returns kCrashed and the caller must call Crash(). SST files and manifests live in the
// shared ObjectStore passed to each handler. REQUIRES: is_up() for every handler.
// OnMessage (datanode_messages.cc) is the region server's message dispatch: it answers writes,
// scans, region requests and heartbeat replies through the NodeContext.
// Write acceptance follows docs/protocol.md section 5.2 exactly; leases follow docs/protocol.md
// section 7. Plain value: copy = snapshot; Hash covers all state that affects future behaviour.
//
// Durable staging (Rule::kDurableStaging; off = greptime, where a role change out of staging
// drops the staging info, staged flushes stay hidden for good and reopen forgets staging):
// - The directive is durable: UpdatePartitionExpr by its PartitionExprChange action (as in
//   mito), RejectAllWrites by a kRejectAllWrites marker. The staging directory of a region is
//   non-empty exactly while the region is staging, because every exit clears it.
// - Losing the lease (Follower, DowngradingLeader, expiry) only suspends staging: the role
//   changes, the staging info, memtable and staged files stay. A reopen (crash, or open on
//   another node) restores the same suspended state from the staging directory, and replays
//   only the WAL entries after the staged flushes (which truncated the WAL), so nothing is lost
//   or replayed twice. A StagingLeader lease resumes it under Rule::kLeasePromotesStaging (P11
//   stays a separate switch), after which the re-sent EnterStaging is an idempotent Ok.
// - Only a Leader lease (the route says the region is no longer staging: rolled back, or a
//   stale lease) ends it without the group: the memtable is flushed as a staged file under the
//   staging expression, then the region's own staged flushes are merged into its normal
//   manifest (files, flushed entry id, sequence), the expression change is NOT applied, and the
//   staging directory is cleared. Files keep their staging expression, so the per-file filter
//   shows exactly the rows inside the committed expression: no row is exposed outside it (none
//   misplaced or duplicated against the region that owns it under the old rule), and rows
//   outside it are hidden, not deleted: the files stay referenced, and they reappear if the
//   region later commits a covering expression (the re-dispatched group's remap copies them).
// - While staging, scans also read the region's own staged flushes, filtered by the committed
//   expression like any file written under another expression, so a staging flush no longer
//   causes the transient omission of docs/protocol.md section 6.3 (the region serves reads with its
//   committed expression). Remap edits of an interrupted ApplyStagingManifest are never read or
//   merged on exit: they only copy references the next apply rebuilds.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "model/datanode/object_store.h"
#include "model/datanode/region.h"
#include "model/datanode/region_wal.h"
#include "model/meta/ids.h"
#include "model/meta/region_route.h"
#include "model/node/crash_hook.h"
#include "model/node/message.h"
#include "model/node/node_context.h"
#include "model/node/reply.h"
#include "model/partition/expr.h"
#include "model/protocol/protocol.h"
#include "sim/fingerprint.h"
#include "sim/ratio.h"
#include "sim/time.h"

namespace repartsim::model {

// Every crash site of the datanode, for registration with sim::CrashPointStats.
inline constexpr std::string_view kDatanodeCrashSites[] = {
    "datanode.write.after_wal",     "datanode.create.after_manifest",
    "datanode.flush.after_sst",     "datanode.flush.after_manifest",
    "datanode.drop.after_manifest", "datanode.enter_staging.after_clear",
    "datanode.remap.after_blob",    "datanode.apply_staging.after_edit",
    "datanode.compact.after_sst",
};

// Faults of WAL replay when a region opens after a restart (GreptimeDB #8809): a replayed entry
// whose apply to the memtable fails (an apply error at replay; the write path had accepted it).
// Under Rule::kFailClosedReplay the region's open fails with it (the region stays closed, its
// WAL intact, until RetryFailedOpens); off, the entry is skipped and the region opens without
// its rows (mito's replay discards the apply result at the modelled commit).
struct ReplayFaults {
  // Asked once per WAL entry replayed, in replay order: true = this entry fails to apply.
  std::function<bool()> entry_fails;
  struct Failure {
    RegionId region;
    uint64_t entry_id = 0;
    size_t rows = 0;
    bool open_failed = false;  // the region did not open (fail-closed); else the entry was skipped
  };
  std::vector<Failure> failures;  // appended to by each open, in order
};

// Watches the region writes a datanode acknowledges; the cluster's INV-OWN probe is one. It is
// called with each accepted region write as soon as its result is known (before the next write
// of the same request runs, so a crash point there comes after it) and must not change the
// datanode.
class AcceptedWriteObserver {
 public:
  virtual ~AcceptedWriteObserver() = default;
  // `region` is the open region that accepted `write`, as it is right after the write.
  // `write_id`: the client write the request carried (WriteRequest::write_id, reports only).
  virtual void OnAccepted(const Region& region, const RegionWrite& write, uint64_t write_id,
                          NodeContext& ctx) = 0;
};

class Datanode {
 public:
  // `region_lease`: the lease countdown the region alive keeper starts for a region it creates
  // (the metasrv's region lease; the default is MetasrvConfig's).
  explicit Datanode(NodeId id, sim::Duration region_lease = sim::Seconds(10))
      : id_(id), region_lease_(region_lease) {}
  // Manifest checkpoints (docs/protocol.md section 10.10): a normal manifest edit starts one
  // when the version is `distance` past the last checkpoint (0: never; GreptimeDB's
  // manifest_checkpoint_distance, 10); while one runs, RemapManifest's read of that region's
  // manifest loses a delta with ratio `race` (Chance "net.checkpoint_race").
  void ConfigureCheckpoints(uint64_t distance, sim::Ratio race) {
    checkpoint_distance_ = distance;
    checkpoint_race_ = race;
  }

  NodeId id() const { return id_; }
  bool is_up() const { return up_; }

  // ---- messages (datanode_messages.cc) ----------------------------------------------------
  // Answers `message` from `from`: a WriteRequest with a WriteReply (one result per region
  // write, `observer` told of each accepted one), a ScanRequest with a ScanResponse, a
  // RegionRequest with one RegionResponse for all its regions, handled in order (a created
  // region also starts its lease countdown), a
  // HeartbeatReply by applying its leases and closing the regions it names. When a crash point
  // fires nothing more is sent and ctx.crashed is set: the caller must crash the node.
  // REQUIRES: is_up(); `message` is one of those four kinds.
  void OnMessage(NodeId from, const Message& message, ObjectStore& store, NodeContext& ctx,
                 AcceptedWriteObserver* observer = nullptr);
  // The heartbeat sent at `now`: every open region, in RegionId order. REQUIRES: is_up().
  Heartbeat MakeHeartbeat(sim::SimTime now) const;
  // The lease timer fired: every region whose lease deadline is <= ctx.now() is demoted
  // (ExpireLeases) and logged as `dn.lease_expired`. REQUIRES: is_up().
  void OnLeaseTimer(NodeContext& ctx);

  // ---- region requests -------------------------------------------------------------------
  // Write `rows` (one Value per schema column) stamped with the frontend's expression version.
  // `now` matters only under Rule::kTimeOrderedSequences: the batch's first sequence is at
  // least now_ms << kSequenceTimeShift, so sequences follow virtual time across regions (a
  // hybrid logical clock) and a row adopted through a remap never shadows a newer write.
  Reply HandleWrite(RegionId region, std::vector<Row> rows, std::optional<uint64_t> version,
                    const Protocol& protocol, CrashHook& crash, sim::SimTime now = {});
  static constexpr uint32_t kSequenceTimeShift = 20;
  // Memtable + visible files; files whose expression differs from the region's committed one
  // are row-filtered by it (filter-path semantics); dedup unless append mode. A region serves
  // reads with its committed expression even while staging, so under Rule::kFencedReads a
  // planned version other than the committed one (e.g. the staging version a frontend planned
  // with from the new route) is rejected with kPartitionExprVersionMismatch and the frontend
  // re-plans. Under Rule::kDurableStaging a staging region also reads its staged flushes.
  // Under Rule::kRouteFencedReads a scan planned under `route_version` older than the newest
  // route version the region has seen is refused the same way (kPartitionExprVersionMismatch);
  // the default (kUnplannedScan) is a scan no route planned (the checker's), never refused.
  static constexpr uint64_t kUnplannedScan = UINT64_MAX;
  ScanReply HandleScan(RegionId region, std::optional<uint64_t> planned_version,
                       const Protocol& protocol, const ObjectStore& store,
                       uint64_t route_version = kUnplannedScan, bool count_only = false) const;
  // Creates the region (or adopts an existing manifest) and opens it Writable. Idempotent.
  // Under Rule::kDropTombstones a request sent under a route version older than the region's
  // drop tombstone is refused (kUnexpected) and creates nothing.
  Reply HandleCreateRegion(RegionId region, const TableSchema& schema,
                           std::optional<PartitionExpr> expr, ObjectStore& store, CrashHook& crash,
                           bool awaiting_apply = false,
                           const Protocol& protocol = Protocol::Greptime(),
                           uint64_t route_version = 0);
  // Opens a region from its manifest as a Follower, replaying the WAL. Idempotent. Under
  // Rule::kDurableStaging a staging directory restores suspended staging (see above).
  Reply HandleOpenRegion(RegionId region, const ObjectStore& store, const Protocol& protocol);
  // The greptime form (staging is not restored).
  Reply HandleOpenRegion(RegionId region, const ObjectStore& store);
  // Closes the region here (volatile state dropped; WAL and manifest stay). Idempotent.
  Reply HandleCloseRegion(RegionId region);
  // Deletes the manifest, staging area and WAL. Ok when the region is not here (idempotent).
  // Under Rule::kDropTombstones it first records a tombstone at `route_version`, also when
  // the region is not here (a create still in flight must not revive it).
  Reply HandleDropRegion(RegionId region, ObjectStore& store, CrashHook& crash,
                         const Protocol& protocol = Protocol::Greptime(),
                         uint64_t route_version = 0);
  // Flushes the memtable to an SST: normal manifest edit (or a staged edit while the region has
  // staging info), then WAL truncation. Ok with no file when the memtable is empty.
  Reply HandleFlush(RegionId region, ObjectStore& store, CrashHook& crash,
                    const Protocol& protocol = Protocol::Greptime());
  // Compacts the files of a Leader(Writable) region into one (docs/protocol.md section 10.9):
  // reads them as a scan does (a file written under another expression filtered by the
  // region's, deduplicated unless append mode), writes one SST under the region's expression
  // and replaces the inputs with it in one manifest edit. The inputs stay in the object store
  // (other regions may share them; GC removes them). Each output row is written at the largest
  // sequence of the input files (an adopted file's admission sequence, else its newest row's)
  // unless Rule::kCompactionEffectiveSequences keeps the sequence the read ranked it at.
  // Ok(rows written) with no file when the region has fewer than two files; RegionNotReady in
  // any other state (staging skips compaction). The memtable is untouched.
  // The inputs go to the manifest's removed_files at `now`.
  Reply HandleCompact(RegionId region, ObjectStore& store, CrashHook& crash,
                      const Protocol& protocol, sim::SimTime now = sim::SimTime{0});

  // ---- staging (docs/protocol.md section 10.5) --------------------------------------------------
  // Under Rule::kDurableStaging a RejectAllWrites directive is also recorded durably.
  Reply HandleEnterStaging(RegionId region, const StagingInfo& directive, const Protocol& protocol,
                           ObjectStore& store, CrashHook& crash);
  // The greptime form.
  Reply HandleEnterStaging(RegionId region, const StagingInfo& directive, ObjectStore& store,
                           CrashHook& crash);
  // Central region: remaps the persisted normal manifests of `inputs` into one manifest per
  // target (src -> [dst] in `mapping`), stored as remap blobs in the central's staging storage.
  // `vanished`: a source whose manifest read loses a delta to a running checkpoint (the
  // cluster's draw; docs/protocol.md section 10.10): the remap fails with NotFound.
  Reply HandleRemapManifest(RegionId central, const std::vector<RegionId>& inputs,
                            const std::map<RegionId, std::vector<RegionId>>& mapping,
                            const std::map<RegionId, std::optional<PartitionExpr>>& target_exprs,
                            ObjectStore& store, CrashHook& crash,
                            std::optional<RegionId> vanished = std::nullopt);
  // Out of staging with the requested expression committed, greptime answers Ok as a replay
  // without looking at files; under Rule::kApplyStagingChecksFiles the remapped files the
  // central region holds for this region are attached if some are missing.
  Reply HandleApplyStagingManifest(RegionId region, const std::optional<PartitionExpr>& expr,
                                   RegionId central, const Protocol& protocol, ObjectStore& store,
                                   CrashHook& crash);
  // The greptime form.
  Reply HandleApplyStagingManifest(RegionId region, const std::optional<PartitionExpr>& expr,
                                   RegionId central, ObjectStore& store, CrashHook& crash);

  // ---- region migration (docs/protocol.md section 13; datanode_migration.cc) ----------------
  // OpenRegion for a migration candidate: opens the region from its manifest as a Follower
  // without replaying this node's WAL (skip_wal_replay). Ok when already open. A Follower
  // serves reads and refuses writes (RegionNotReady).
  Reply HandleOpenCandidate(RegionId region, const ObjectStore& store);
  // DowngradeRegion: a leader (Writable, Staging or Downgrading) leaves staging WITHOUT merging
  // its staged data (mito exit_staging), becomes Downgrading, flushes its memtable (normal
  // manifest), and becomes a Follower; a Follower answers as it is. `last_entry_id` gets the
  // region's last WAL entry id. RegionNotFound when the region is not open here.
  Reply HandleDowngradeRegion(RegionId region, ObjectStore& store, CrashHook& crash,
                              const Protocol& protocol, uint64_t& last_entry_id);
  // UpgradeRegion (catch-up, local WAL): a Writable region is ready; a Follower is reopened
  // from its manifest when the manifest changed since it opened (no replay: the downgrade's
  // flush put the data in SSTs), then made Writable with a lease countdown from `now`.
  // RegionNotFound when the region is not open here.
  Reply HandleUpgradeRegion(RegionId region, const ObjectStore& store, sim::SimTime now,
                            const Protocol& protocol);

  // ---- leases (docs/protocol.md section 7) ------------------------------------------------------
  // Applies the lease role granted for `region` and renews its deadline. Returns false when the
  // region is not open here. A Leader lease ends staging (under Rule::kDurableStaging by
  // merging the staged flushes into the normal manifest in `store`); Follower and
  // DowngradingLeader leave it (greptime) or suspend it (durable staging).
  // `route_version` is the version of the route the lease was computed from: under
  // Rule::kVersionedLeases a lease older than what the region has seen is ignored (returns
  // false, nothing changes).
  bool ApplyLease(RegionId region, RegionRole role, sim::SimTime deadline, const Protocol& protocol,
                  ObjectStore& store, uint64_t route_version = 0);
  // An instruction sent under `route_version` reached `region` (no-op when it is not open).
  void NoteRouteVersion(RegionId region, uint64_t route_version);
  // The form without the store: REQUIRES that it does not have to merge staged flushes (it
  // asserts when a Leader lease ends staging under Rule::kDurableStaging).
  bool ApplyLease(RegionId region, RegionRole role, sim::SimTime deadline,
                  const Protocol& protocol);
  // Every region whose lease deadline is <= now becomes a Follower (leaving staging, or
  // suspending it under Rule::kDurableStaging). Returns the regions demoted.
  std::vector<RegionId> ExpireLeases(sim::SimTime now, const Protocol& protocol);
  // The greptime form.
  std::vector<RegionId> ExpireLeases(sim::SimTime now);
  // The earliest lease deadline of an open region, if any.
  std::optional<sim::SimTime> NextLeaseDeadline() const;

  // ---- faults ----------------------------------------------------------------------------
  // Loses every open region (memtables, roles, staging info). WAL and registry stay.
  void Crash();
  // Comes back up and opens every hosted region that still has a manifest, as a Follower;
  // under Rule::kDurableStaging staging is restored (suspended) as in HandleOpenRegion. WAL
  // replay may fail on an entry (`faults`, nullptr: never; see ReplayFaults).
  void Reopen(const ObjectStore& store, const Protocol& protocol, ReplayFaults* faults = nullptr);
  // Comes back up with no region open: every hosted region waits to be opened by
  // OpenNextPending, one at a time, the first at `first_open` (GreptimeDB's
  // init_regions_in_background: heartbeats and requests are served meanwhile, and a region not
  // open yet answers RegionNotFound).
  void ReopenInBackground(sim::SimTime first_open);
  // When the next pending region opens; nullopt when none waits.
  std::optional<sim::SimTime> NextPendingOpen() const;
  // Opens the lowest pending region (skipped when it has no manifest, or its WAL replay failed
  // under fail-closed replay) and schedules the next one at `next`. Returns the region when it
  // opened now. REQUIRES: is_up() and NextPendingOpen().
  std::optional<RegionId> OpenNextPending(const ObjectStore& store, const Protocol& protocol,
                                          ReplayFaults* faults, sim::SimTime next);
  const std::set<RegionId>& pending_opens() const { return pending_opens_; }
  // Opens again each hosted region whose open failed (fail-closed replay) and that still has a
  // manifest; returns those that opened now. REQUIRES: is_up().
  std::vector<RegionId> RetryFailedOpens(const ObjectStore& store, const Protocol& protocol,
                                         ReplayFaults* faults);
  // Hosted regions whose last open failed in WAL replay and that are not open.
  const std::set<RegionId>& failed_opens() const { return failed_opens_; }
  // The greptime form (staging is not restored).
  void Reopen(const ObjectStore& store);

  const Region* FindRegion(RegionId region) const;
  const std::map<RegionId, Region>& regions() const { return regions_; }
  const std::set<RegionId>& hosted() const { return hosted_; }
  const RegionWal* Wal(RegionId region) const;

  void Hash(sim::Hasher& h) const;
  uint64_t Fingerprint() const;
  // The regions whose automatic compaction a flush requested (Region::compaction_requested):
  // part of the cluster's fingerprint only when background compaction can run.
  void HashCompactionRequests(sim::Hasher& h) const;

 private:
  Region* FindMutable(RegionId region);
  void OnWriteRequest(NodeId from, const WriteRequest& request, NodeContext& ctx,
                      AcceptedWriteObserver* observer);
  void OnRegionRequest(NodeId from, const RegionRequest& request, ObjectStore& store,
                       NodeContext& ctx);
  // One region of a RegionRequest; kCrashed when a crash point fired.
  // `last_entry_id`: set by a DowngradeRegion.
  Reply HandleRegionInstruction(const RegionInstruction& item, uint64_t route_version,
                                ObjectStore& store, NodeContext& ctx, uint64_t& last_entry_id);
  void OnHeartbeatReply(const HeartbeatReply& reply, ObjectStore& store, NodeContext& ctx);
  // Opens the region from its manifest and replays its WAL after the flushed entry; false when
  // an entry failed to apply under Rule::kFailClosedReplay (the region is not open then).
  // `skip_replay`: a migration candidate opens without replaying this node's WAL.
  bool OpenFromManifest(const RegionManifest& manifest, RegionState state,
                        const std::vector<StagingAction>* restore_staging = nullptr,
                        ReplayFaults* faults = nullptr, bool fail_closed = false,
                        bool skip_replay = false);
  // Opens hosted region `id` after a restart (its manifest, staging under durable staging).
  void OpenHosted(RegionId id, const ObjectStore& store, const Protocol& protocol,
                  ReplayFaults* faults);
  // Flushes the memtable into an SST and records the edit (normal or staged); no crash points
  // when `crash` is nullptr. Returns false when a crash point fired.
  bool FlushMemtable(Region& region, ObjectStore& store, CrashHook* crash,
                     const Protocol& protocol);
  // Applies `edit` to the region's in-memory version and stores the result as its manifest,
  // bumping manifest_version. With Rule::kExitStagingAppliesEdits off the stored manifest may
  // hold edits memory lacks: the edit is then applied to the stored one as well.
  void CommitManifestEdit(Region& region, ObjectStore& store, const Protocol& protocol,
                          const std::function<void(RegionManifest&)>& edit);
  // A lease demoted the region to `state` (Follower or Downgrading).
  void DemoteOutOfStaging(Region& region, RegionState state, const Protocol& protocol);
  // A Leader lease ends staging: greptime drops it; durable staging merges staged flushes.
  void EndStagingByLease(Region& region, const Protocol& protocol, ObjectStore* store);

  friend struct sim::FingerprintSeam<Datanode>;

  NodeId id_;
  sim::Duration region_lease_;                        // configuration, constant for the run
  uint64_t checkpoint_distance_ = 10;                 // configuration
  sim::Ratio checkpoint_race_ = sim::Ratio::Never();  // configuration
  bool up_ = true;
  std::map<RegionId, Region> regions_;
  std::map<RegionId, RegionWal> wals_;
  std::set<RegionId> hosted_;
  std::set<RegionId> failed_opens_;   // in memory: a crash forgets it, the next reopen retries
  std::set<RegionId> pending_opens_;  // in memory: hosted regions a background reopen has not
  sim::SimTime next_open_{0};         // opened yet, and when the next one opens
};

// Files of `region`'s staged edits that the region flushed itself and that are not yet in its
// version, in staging order (missing files included, so that a reader reports them).
std::vector<FileId> OwnStagedFiles(const Region& region, const ObjectStore& store);
// The directive a staging directory records in its first action (kPartitionExprChange or
// kRejectAllWrites); nullopt when it records none.
std::optional<StagingInfo> StagingInfoFromActions(const std::vector<StagingAction>& actions);

}  // namespace repartsim::model
