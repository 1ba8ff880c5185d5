#include "model/protocol/protocol.h"

#include "model/protocol/rules.h"
#include "sim/suggest.h"

namespace repartsim::model {

namespace {

constexpr std::array<RuleInfo, kRuleCount> kRules = {{
    {Rule::kVersionFenceUnversioned, "version-fence-unversioned",
     "datanodes reject writes that carry no expression version", false, true},
    {Rule::kRerouteOnVersionMismatch, "reroute-on-version-mismatch",
     "a frontend refreshes its route and re-routes a write rejected for a stale version", false,
     true},
    {Rule::kFenceMergedAwaySources, "fence-merged-away-sources",
     "merged-away sources stay Staging (RejectAllWrites) from EnterStaging until they are "
     "dropped, so a stale frontend can never write to them again",
     false, true},
    {Rule::kUnifiedNullRouting, "unified-null-routing",
     "row path, bulk path and file filter use one predicate, NULL included (P7)", false, true},
    {Rule::kAlignedPartitionRule, "aligned-partition-rule",
     "the frontend rule keeps regions and exprs aligned when a route has no expr (P3)", false,
     true},
    {Rule::kFencedReads, "fenced-reads",
     "scans carry the planned expression version; a mismatch makes the frontend re-plan", false,
     true},
    {Rule::kDurableStaging, "durable-staging",
     "staged memtable rows and staging files survive leaving staging and a restart (P5, P11)",
     false, true},
    {Rule::kLeasePromotesStaging, "lease-promotes-staging",
     "a StagingLeader lease re-promotes a staging region that lost its lease (P11)", false, true},
    {Rule::kIdempotentRedispatch, "idempotent-redispatch",
     "re-dispatch after a metasrv restart resumes applied groups instead of failing (P2)", false,
     true},
    {Rule::kPerGroupIndices, "per-group-indices",
     "group region mappings use per-group target indices, not global ones (P1)", false, true},
    {Rule::kRollForwardAfterCommit, "roll-forward-after-commit",
     "once a group applied staging the parent never rolls back: it re-dispatches failed "
     "groups, so datanode manifests and metadata cannot diverge (P2, P8)",
     false, true},
    {Rule::kFenceAllocatedRegions, "fence-allocated-regions",
     "new regions are IgnoreAllWrites until ApplyStaging and refuse writes and reads until "
     "they applied their remapped manifest, so rollback never drops an acknowledged row, bulk "
     "writes never see overlapping routes and no read misses moved rows (P4, P5)",
     false, true},
    {Rule::kVersionedCacheFills, "versioned-cache-fills",
     "a cache fill that raced an invalidation is always discarded (invalidation epoch); "
     "greptime's VersionChecked loader gives up after 3 raced reloads and keeps the value",
     false, true},
    {Rule::kAckedInvalidation, "acked-invalidation",
     "cache invalidations are acknowledged by every frontend and retried until they are", false,
     true},
    {Rule::kGcPositiveProof, "gc-positive-proof",
     "GC deletes a file only with positive proof that no region references it", false, true},
    {Rule::kExactRuleChecker, "exact-rule-checker",
     "the rule checker knows integer domains are discrete (x <= 1, x >= 2 is complete)", false,
     true},
    {Rule::kDeallocateMergedAway, "deallocate-merged-away",
     "merged-away regions of succeeded groups are dropped even when the parent rolls back (P8)",
     false, true},
    {Rule::kIdempotentAllocate, "idempotent-allocate",
     "AllocateRegion re-executed after its route commit keeps the allocated routes instead of "
     "failing the WAL-option check (P12)",
     false, true},
    {Rule::kTimeOrderedSequences, "time-ordered-sequences",
     "write sequences carry the virtual time (a hybrid logical clock), so rows a region adopts "
     "through a remap never shadow newer writes to the same key (N1, found by this model)",
     false, true},
    {Rule::kMetasrvValidatesRule, "metasrv-validates-rule",
     "RepartitionStart checks that the resulting rule is complete and disjoint instead of "
     "trusting the frontend (P9)",
     false, true},
    {Rule::kRowPathOverSchema, "row-path-over-schema",
     "the row path evaluates partition expressions over the table's columns, not only the "
     "rule's partition columns, so an ON COLUMNS repartition (which switches the column list "
     "before the expressions) never fails inserts with an undefined column (P13)",
     false, true},
    {Rule::kVersionedLeases, "versioned-leases",
     "every region lease carries the version of the route it was computed from, and every "
     "mailbox instruction the route version it was sent under; a datanode ignores a lease "
     "older than what it applied, so a reply computed before ApplyStaging and pushed after "
     "EnterStaging (the heartbeat handler-chain gap) cannot end staging",
     false, true},
    {Rule::kApplyStagingChecksFiles, "apply-staging-checks-files",
     "an ApplyStagingManifest that finds the region out of staging with the requested "
     "expression counts as a replay only if the region holds every remapped file; otherwise "
     "it attaches them, instead of answering Ok with no file",
     false, true},
    {Rule::kCloseableAfterRecovery, "closeable-after-recovery",
     "after a metasrv leader change, heartbeat replies list no closeable regions until "
     "procedures are recovered, so a region whose creation is being recovered is not closed",
     false, true},
    {Rule::kFenceNewRegionsUntilCommit, "fence-new-regions-until-commit",
     "a new region that applied its remapped manifest keeps refusing writes until a Leader "
     "lease shows the group left staging, so a reader still planning with the old route "
     "(which does not list the region) misses no acknowledged row while the central region "
     "has not applied yet",
     false, true},
    {Rule::kDropTombstones, "drop-tombstones",
     "DropRegion leaves a durable tombstone with the route version it was sent under, and a "
     "CreateRegion sent under an older route version (a CREATE TABLE request overtaken by its "
     "own retry and by a whole repartition) is refused instead of re-creating the region, "
     "which would take writes from stale routes until a heartbeat closes it",
     false, true},
    {Rule::kRouteFencedReads, "route-fenced-reads",
     "a scan carries the version of the route it was planned with, and a region that has seen "
     "a newer route version (an instruction or lease stamped with it) refuses it so the "
     "frontend re-plans: a read planned before a merge cannot miss rows its target accepted "
     "under the new route, nor see them twice (the expression-version fence alone passes it, "
     "because a staging region's committed expression has not changed yet)",
     false, true},
    {Rule::kExactCountStatistics, "exact-count-statistics",
     "an append-mode region answers an unfiltered count(*) from its files' row counts only "
     "when no file needs the partition filter (every file was written under the region's "
     "expression); otherwise it counts the filtered scan, so files a split shares between "
     "regions are not counted once per region (#9149, fixed by #9154)",
     false, true},
    {Rule::kTargetSequenceForeignFiles, "target-sequence-foreign-files",
     "[inferred from GreptimeDB PR #8946] a file another region wrote that a region adopts "
     "by ApplyStagingManifest ranks, for deduplication, at the region's admission sequence "
     "(one past its last sequence when it applied) instead of its rows' source sequences; "
     "off in both profiles: the modelled commit predates the PR, and the reference orders "
     "sequences by time (time-ordered-sequences) instead",
     false, false},
    {Rule::kVersionedRowWrites, "versioned-row-writes",
     "a row-path or Flight write carries the expression version of the route it was split "
     "with, and the datanode compares it with the region's (a mismatch is refused and the "
     "frontend may re-route). Historical: GreptimeDB #7628 added the version; before it no "
     "write carried one and a region accepted any row a stale route sent it. Off also turns "
     "the datanode's comparison off, whatever version-fence-unversioned says",
     true, true, "#7628"},
    {Rule::kFilterForeignFiles, "filter-foreign-files",
     "a scan filters the rows of a file written under another expression than the region's "
     "(a file a split or merge shares between regions) by the region's expression. "
     "Historical: GreptimeDB #7067 added the partition filter; before it a shared file was "
     "read whole by every region that referenced it (duplicates after a split, rows outside "
     "the region)",
     true, true, "#7067"},
    {Rule::kKeepMemtableOnApply, "keep-memtable-on-apply",
     "ApplyStagingManifest leaves staging with the region's memtable intact: rows written "
     "while staging and not yet flushed stay readable. Historical: GreptimeDB #7695 made the "
     "staging exit a metadata-only change; before it the exit rebuilt the memtables and "
     "dropped those rows (they stayed in the WAL, read again only by a reopen)",
     true, true, "#7695"},
    {Rule::kNullFirstFilter, "null-first-filter",
     "the partition filter of a scan sorts a NULL partition key before every value, so a "
     "NULL key matches only the region whose range starts lowest. Historical: GreptimeDB "
     "#7747 (fixing #7746); before it [inferred from the PR text] a lower bound (`col > v`, "
     "`col >= v`) admitted NULL too, and after a split a NULL key in a shared file was read "
     "by several regions",
     true, true, "#7747"},
    {Rule::kRejectMergedAwayWrites, "reject-merged-away-writes",
     "a merge's merged-away sources refuse writes from EnterStagingRegion on (EnterStaging "
     "with RejectAllWrites) and their routes carry IgnoreAllWrites from ApplyStaging, so no "
     "write reaches a region that will be dropped. Historical: GreptimeDB #7694 (closing "
     "#7678); before it a merged-away source kept taking writes until its deallocation "
     "dropped them",
     true, true, "#7694"},
    {Rule::kDiscardRacedFills, "discard-raced-fills",
     "a route-cache fill whose load an invalidation of the same table interrupted is not "
     "cached as it is: it is reloaded (greptime, up to 3 times) or discarded and fetched "
     "again (versioned-cache-fills). Historical: GreptimeDB #7825 (fixing #7815) made the "
     "table route cache VersionChecked; before it the Unchecked loader cached the value it "
     "had read before the invalidation, so a frontend kept a route older than an "
     "invalidation it had already received. Off, versioned-cache-fills has no effect",
     true, true, "#7825"},
    {Rule::kStagingFlushExpr, "staging-flush-expr",
     "a file flushed while a region stages a new partition expression records the staging "
     "expression, the one its rows were accepted under. Historical: GreptimeDB #7461 passed "
     "the staging expression to the flush task; before it the flush read the committed "
     "metadata, so a merge target's staged file claimed the target's old, narrower range, "
     "and once a later repartition gave a region that range again its scans read the file "
     "unfiltered (rows outside the region, duplicates)",
     true, true, "#7461"},
    {Rule::kStagingFlushDropsMemtable, "staging-flush-drops-memtable",
     "a flush while a region is staging removes the memtable it flushed, as any flush does. "
     "Historical: GreptimeDB #6962 (\"staging mode with proper region edit operations\"); "
     "before it a staging flush left the flushed memtables readable, so once the staged file "
     "became visible (ApplyStagingManifest, or a lease ending staging under durable-staging) "
     "its rows were there twice: an append-mode region returned them twice and flushed them "
     "again",
     true, true, "#6962"},
    {Rule::kExitStagingAppliesEdits, "exit-staging-applies-edits",
     "ApplyStagingManifest's exit from staging applies the staged edits (the remapped files "
     "and the files flushed while staging) to the region's in-memory version as well as to "
     "its stored manifest. Historical: GreptimeDB #6962 [inferred: the PR predates "
     "ApplyStagingManifest; its staging exit is modelled on today's]; before it only the "
     "expression change reached memory, so a split target read none of the rows it took over "
     "and a source none it flushed while staging, until the region was reopened",
     true, true, "#6962"},
    {Rule::kFailClosedReplay, "fail-closed-replay",
     "[inferred from GreptimeDB issue #8809 and its open PR #8925] a WAL entry that cannot be "
     "applied to the memtable while a region opens fails the open: the region stays closed, "
     "its WAL intact, and is opened again later (modelled: at the datanode's next heartbeat, "
     "standing in for failover or an operator). Off at the modelled commit: replay discards "
     "the apply result, so the region opens without that entry's acknowledged rows, and the "
     "next flush truncates them from the WAL for good",
     false, true},
    {Rule::kCompactionEffectiveSequences, "compaction-effective-sequences",
     "GreptimeDB issue #9146, fixed by PR #9147 (merged after the modelled commit; its code "
     "not read, [inferred] from its text): a compaction writes each row at the sequence a "
     "read ranks it at. Off (compactor.rs at the modelled commit): every row of the "
     "compacted file is written at the largest sequence of its input files, so an older "
     "value it holds outranks a newer version of the same key outside it (in the memtable); "
     "a file a repartition target adopted keeps its source region's sequences, so compacting "
     "it with the target's own files lifts the target's old values above its newer writes",
     false, true},
    {Rule::kFenceCheckpoints, "fence-checkpoints",
     "GreptimeDB issue #8625, fixed by PR #8847 (merged after the modelled commit; its code not "
     "read, [inferred] from its text): EnterStaging waits for the region's running manifest "
     "checkpoint before it completes, so no checkpoint deletes manifest deltas while "
     "RemapManifest reads the staging sources' manifests. Off, a checkpoint started by the "
     "EnterStaging flush can delete a delta RemapManifest listed before it reads it: the remap "
     "fails with a NotFound error the metasrv does not retry, and the repartition rolls back",
     false, true},
    {Rule::kApplySkipsRemovedFiles, "apply-skips-removed-files",
     "[inferred: a repartsim design, no GreptimeDB change] an ApplyStagingManifest that a "
     "dispatched-again group sends to a region that applied before does not attach remapped "
     "files the region's manifest records as removed: a compaction since the first apply "
     "holds their rows. Off, the apply adds them back, and an append-mode table returns each "
     "of their rows twice (INV-NODUP, INV-ACK); a deduplicating table hides it",
     false, true},
    {Rule::kGcRefsNeedOpenRegions, "gc-refs-need-open-regions",
     "GC reads a region's file references from its leader's open region, and a leader that has "
     "not opened it (a restarted datanode opening its regions in the background) fails the "
     "call with RegionNotFound, so the table's GC pass fails. Historical: GreptimeDB #8445 "
     "(src/mito2/src/engine.rs get_snapshot_of_file_refs); before it such a region was "
     "skipped, and the files it adopted from a dropped repartition source were deleted",
     true, true, "#8445"},
    {Rule::kMigrationRespectsStaging, "migration-respects-staging",
     "[inferred: a repartsim design, no GreptimeDB change] RegionMigrationStart fails the "
     "migration while the region's route is Staging, so no migration downgrades a region a "
     "group is staging (it does not wait: see lock-new-targets). Off (migration_start.rs at "
     "the modelled commit checks only the leader peer): DowngradeRegion leaves staging "
     "without merging and the group's ApplyStagingManifest finds the region out of staging "
     "(MIG-1, MIG-2, INV-ACK)",
     false, true},
    {Rule::kAllocateRouteUnderLock, "allocate-route-under-lock",
     "AllocateRegion.Execute reads the table route after its CreateRegion calls, under the "
     "dynamic table lock, and builds the new route from that read. Historical: GreptimeDB "
     "#8115 (src/meta-srv/src/procedure/repartition/allocate_region.rs ExecutePlan::next); "
     "before it the route was read before the CreateRegion calls, so a route write of a "
     "concurrent region migration in between made the CAS of update_table_route fail with "
     "the non-retryable `Unexpected: Reads the different value`, and the repartition rolled "
     "back for nothing (MIG-4, INV-AVAIL)",
     true, true, "#8115"},
    {Rule::kDowngradeWaitsForOpen, "downgrade-waits-for-open",
     "[inferred: a repartsim design, no GreptimeDB change] A datanode answers DowngradeRegion "
     "for a region it is still opening (a restart with init_regions_in_background, or a failed "
     "open retried at the next heartbeat tick), or has "
     "reopened as a Follower whose memtable holds the rows its WAL replayed (no lease yet), "
     "with RegionNotReady, and the migration retries it within its budget, then rolls back. "
     "Off (downgrade_region.rs at the modelled commit): the reply says exists=false (the "
     "region is not in the engine yet) or skips the flush of a region that is not writable, "
     "the migration upgrades the candidate from the region's manifest, and the rows only in "
     "the old leader's local WAL are lost (MIG-8, INV-ACK)",
     false, true},
    {Rule::kLockNewTargets, "lock-new-targets",
     "[inferred: a repartsim design, no GreptimeDB change] The regions a repartition "
     "allocated stay registered as its operating regions until it ends, and "
     "RegionMigrationStart fails a migration of such a region (no wait: the migration would "
     "hold Region-W while a re-dispatched group waited for it). Off (the modelled commit): "
     "nothing stops a rebalancer from migrating a new target between AllocateRegion and the "
     "group's ApplyStaging, the group's instructions go to the peer it captured, and the "
     "repartition fails with RegionNotFound (MIG-3, INV-AVAIL)",
     false, true},
    {Rule::kFenceCapturedPeers, "fence-captured-peers",
     "[inferred: a repartsim design, no GreptimeDB change] A group reads each region's leader "
     "from the current route before it sends an instruction, so it follows a region a "
     "migration moved after the group started. Off (the modelled commit: the group keeps the "
     "peers of its G0 snapshot): it retries the stale peer, which answers RegionNotReady "
     "while the region is a Follower there and RegionNotFound once the migration closed it, "
     "and the repartition fails (MIG-1, MIG-3, INV-AVAIL)",
     false, true},
    {Rule::kDowngradedRefusesReads, "downgraded-refuses-reads",
     "[inferred: a repartsim design, no GreptimeDB change] A region that a migration's "
     "DowngradeRegion made a Follower answers scans with RegionNotReady until it leads again "
     "(a rollback). Off (the modelled commit: region_server.rs handle_read checks no role): a "
     "frontend whose route cache still names the old leader (its invalidation late) reads it "
     "after the candidate was upgraded and took writes, and misses them (INV-NOOMIT)",
     false, true},
    {Rule::kUpgradeAwaitsLease, "upgrade-awaits-lease",
     "[inferred: a repartsim design, no GreptimeDB change] A migration candidate that "
     "UpgradeRegion made the leader refuses writes (RegionNotReady) until a leader lease "
     "names it, that is until the route does. Off (the modelled commit: upgrade_region.rs "
     "makes it writable at once): a frontend whose route cache predates the old leader's "
     "term, and names the candidate's datanode, writes to it before UpdateMetadataUpgrade; "
     "reads through the route miss those rows, and a rollback loses them (MIG-11, "
     "INV-NOOMIT, INV-ACK)",
     false, true},
}};

uint64_t DefaultBits(ProfileKind kind) {
  uint64_t bits = 0;
  for (const RuleInfo& info : kRules) {
    bool on = kind == ProfileKind::kGreptime ? info.greptime : info.reference;
    if (on) bits |= uint64_t{1} << static_cast<uint32_t>(info.rule);
  }
  return bits;
}

}  // namespace

const std::array<RuleInfo, kRuleCount>& AllRules() {
  for (size_t i = 0; i < kRules.size(); ++i) {
    REPARTSIM_ASSERT(static_cast<size_t>(kRules[i].rule) == i);
    // A historical switch models a fix the modelled commit has: on in both profiles.
    REPARTSIM_ASSERT(kRules[i].fixed_by == nullptr || kRules[i].greptime);
    REPARTSIM_ASSERT(kRules[i].fixed_by == nullptr || kRules[i].reference);
  }
  return kRules;
}

Protocol::Protocol() : base_(ProfileKind::kGreptime), bits_(DefaultBits(ProfileKind::kGreptime)) {}

Protocol Protocol::Greptime() { return Protocol(); }

Protocol Protocol::Reference() {
  Protocol protocol;
  protocol.base_ = ProfileKind::kReference;
  protocol.bits_ = DefaultBits(ProfileKind::kReference);
  return protocol;
}

sim::Result<Protocol> Protocol::FromProfileName(std::string_view name) {
  if (name == "greptime") return Greptime();
  if (name == "reference") return Reference();
  return sim::MakeError(
      {}, "unknown profile '" + std::string(name) + "' (expected 'greptime' or 'reference')");
}

void Protocol::Set(Rule rule, bool on) {
  REPARTSIM_ASSERT(rule < Rule::kCount);
  const uint64_t mask = uint64_t{1} << static_cast<uint32_t>(rule);
  bits_ = on ? (bits_ | mask) : (bits_ & ~mask);
}

sim::Status Protocol::SetByName(std::string_view name, bool on) {
  for (const RuleInfo& info : AllRules()) {
    if (name == info.name) {
      Set(info.rule, on);
      return sim::Ok{};
    }
  }
  std::vector<std::string> known;
  for (const RuleInfo& info : AllRules()) known.push_back(info.name);
  return sim::MakeError({}, "unknown rule '" + std::string(name) + "'" +
                                sim::DidYouMean(name, known) +
                                "; `repartsim rules` lists every rule");
}

sim::Status Protocol::ApplyOverride(std::string_view assignment) {
  size_t equals = assignment.find('=');
  if (equals == std::string_view::npos) {
    return sim::MakeError({}, "expected name=on|off, got '" + std::string(assignment) + "'");
  }
  std::string_view value = assignment.substr(equals + 1);
  bool on;
  if (value == "on" || value == "true" || value == "1") {
    on = true;
  } else if (value == "off" || value == "false" || value == "0") {
    on = false;
  } else {
    return sim::MakeError({}, "rule value must be on or off, got '" + std::string(value) + "'");
  }
  return SetByName(assignment.substr(0, equals), on);
}

const char* Protocol::base_name() const {
  return base_ == ProfileKind::kGreptime ? "greptime" : "reference";
}

std::string Protocol::OverridesText() const {
  const uint64_t base_bits = DefaultBits(base_);
  std::string out;
  for (const RuleInfo& info : AllRules()) {
    const uint64_t mask = uint64_t{1} << static_cast<uint32_t>(info.rule);
    if ((bits_ & mask) == (base_bits & mask)) continue;
    if (!out.empty()) out += ',';
    out += info.name;
    out += (bits_ & mask) ? "=on" : "=off";
  }
  return out;
}

}  // namespace repartsim::model
