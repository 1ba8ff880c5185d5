#include "model/datanode/datanode.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "model/datanode/row_merge.h"
#include "model/protocol/rules.h"
#include "sim/assert.h"

namespace repartsim::model {
namespace {

// The rows of a region's files as a reader of the region sees them, one sorted run of `refs`
// per file. build_partition_filter: only a file written under a different expression is
// filtered, and only when the region has an expression to filter by (before GreptimeDB #7067,
// none). Rule::kTargetSequenceForeignFiles records an adopted file's admission sequence; its
// rows rank at it.
class FileRowReader {
 public:
  FileRowReader(const Region& region, const ObjectStore& store, const Protocol& protocol)
      : region_(region),
        store_(store),
        filter_(protocol.On(Rule::kFilterForeignFiles) && region.version().partition_expr),
        nulls_first_(protocol.On(Rule::kNullFirstFilter)) {}

  // Adds the rows of `file_id`; false when the object store has no such file.
  bool Add(FileId file_id) {
    const SstFile* file = store_.File(file_id);
    if (file == nullptr) return false;
    const bool filter = filter_ && file->expr_text != region_.committed_expr_text();
    const auto admitted = region_.version().file_sequences.find(file_id);
    const uint64_t admission =
        admitted == region_.version().file_sequences.end() ? 0 : admitted->second;
    file_rows += file->rows.size();
    any_filtered = any_filtered || filter;
    runs.push_back(refs.size());
    const PartitionExpr* expr = filter ? &*region_.version().partition_expr : nullptr;
    for (const SstRow& r : file->rows) {
      if (expr != nullptr && !MatchesFilterPath(*expr, region_.schema(), r.row, nulls_first_)) {
        continue;
      }
      refs.push_back(SeqRowRef{&r.row, admission != 0 ? admission : r.sequence});
    }
    return true;
  }

  std::vector<SeqRowRef> refs;
  std::vector<size_t> runs;
  uint64_t file_rows = 0;     // every row of every file read, filtered or not
  bool any_filtered = false;  // some file needs the partition filter

 private:
  const Region& region_;
  const ObjectStore& store_;
  const bool filter_;
  const bool nulls_first_;
};

// Acceptance table of docs/protocol.md section 5.2 (handle_write.rs), after the region lookup.
Reply CheckWriteAccepted(const Region& region, std::optional<uint64_t> version,
                         const Protocol& protocol) {
  REPARTSIM_ASSERT_MSG(region.state() != RegionState::kEnteringStaging,
                       "EnteringStaging never outlives a handler");
  if (!region.is_writable_or_staging()) {
    return RegionNotReadyReply(region.id(), RegionStateName(region.state()));
  }
  if (region.state() == RegionState::kStaging &&
      region.staging()->directive == StagingDirective::kRejectAllWrites) {
    return RejectWriteReply(region.id());
  }
  // Before GreptimeDB #7628 a region compared no version: it took any row sent to it.
  if (!protocol.On(Rule::kVersionedRowWrites)) return Reply::Ok();
  if (!version.has_value()) {
    // The real system accepts unversioned writes without a check. With the fence rule an
    // unversioned write counts as version 0 ("no expression"), so it still reaches a region
    // that has no expression (an unpartitioned table) and nothing else.
    if (!protocol.On(Rule::kVersionFenceUnversioned)) return Reply::Ok();
    version = 0;
  }
  const uint64_t expected = region.ExpectedVersion();
  if (*version != expected) return VersionMismatchReply(region.id(), *version, expected);
  return Reply::Ok();
}

}  // namespace

std::vector<FileId> OwnStagedFiles(const Region& region, const ObjectStore& store) {
  std::vector<FileId> out;
  const std::vector<StagingAction>* actions = store.Staging(region.id());
  if (actions == nullptr) return out;
  for (const StagingAction& a : *actions) {
    if (a.kind != StagingAction::Kind::kEdit) continue;
    for (FileId f : a.files_to_add) {
      const SstFile* file = store.File(f);
      // A missing file is kept so that the reader reports it (never silently skipped).
      if (file != nullptr && file->writer != region.id()) continue;
      if (region.version().files.count(f) != 0) continue;
      if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
    }
  }
  return out;
}

Region* Datanode::FindMutable(RegionId region) {
  auto it = regions_.find(region);
  return it == regions_.end() ? nullptr : &it->second;
}

const Region* Datanode::FindRegion(RegionId region) const {
  auto it = regions_.find(region);
  return it == regions_.end() ? nullptr : &it->second;
}

const RegionWal* Datanode::Wal(RegionId region) const {
  auto it = wals_.find(region);
  return it == wals_.end() ? nullptr : &it->second;
}

Reply Datanode::HandleWrite(RegionId region_id, std::vector<Row> rows,
                            std::optional<uint64_t> version, const Protocol& protocol,
                            CrashHook& crash, sim::SimTime now) {
  REPARTSIM_ASSERT(up_);
  Region* region = FindMutable(region_id);
  if (region == nullptr) return RegionNotFoundReply(region_id);
  if (region->version().awaiting_apply) {
    return RegionNotReadyReply(region_id, "AwaitingApply", "Leader(Writable) with applied data");
  }
  if (region->version().awaiting_commit) {
    return RegionNotReadyReply(region_id, "AwaitingCommit", "Leader(Writable) after ExitStaging");
  }
  if (region->awaiting_lease()) {
    return RegionNotReadyReply(region_id, "Leader(Writable) awaiting its leader lease",
                               "Leader(Writable) named by the route");
  }
  Reply verdict = CheckWriteAccepted(*region, version, protocol);
  if (!verdict.ok()) return verdict;
  if (rows.empty()) return Reply::Ok(0);
  const uint64_t row_count = rows.size();
  for (const Row& row : rows) {
    REPARTSIM_ASSERT_MSG(row.size() == region->schema().columns.size(), "row width != schema");
  }
  uint64_t sequence = region->last_sequence() + 1;
  if (protocol.On(Rule::kTimeOrderedSequences)) {
    REPARTSIM_ASSERT(now.ms >= 0);
    sequence = std::max(sequence, static_cast<uint64_t>(now.ms) << kSequenceTimeShift);
  }
  WriteBatchPtr batch = MakeWriteBatch(region->last_entry_id() + 1, sequence, std::move(rows));
  auto wal = wals_.find(region_id);
  REPARTSIM_ASSERT(wal != wals_.end());
  wal->second.Append(batch);
  // Durable in the WAL but not yet acknowledged: a crash here leaves an unknown outcome that
  // reappears on reopen.
  if (crash.ShouldCrash("datanode.write.after_wal")) return Reply::Crashed();
  region->AppendMemtable(std::move(batch));
  return Reply::Ok(row_count);
}

ScanReply Datanode::HandleScan(RegionId region_id, std::optional<uint64_t> planned_version,
                               const Protocol& protocol, const ObjectStore& store,
                               uint64_t route_version, bool count_only) const {
  REPARTSIM_ASSERT(up_);
  ScanReply reply;
  const Region* region = FindRegion(region_id);
  if (region == nullptr) {
    Reply r = RegionNotFoundReply(region_id);
    reply.code = r.code;
    reply.message = std::move(r.message);
    return reply;
  }
  // A region allocated by a repartition holds none of its rows before it applied its remapped
  // manifest: a fenced read must re-plan rather than read it.
  if (protocol.On(Rule::kFencedReads) && region->version().awaiting_apply) {
    Reply r = VersionMismatchReply(region_id, planned_version.value_or(0), 0);
    reply.code = r.code;
    reply.message = std::move(r.message);
    return reply;
  }
  // A region a migration downgraded may have a new leader that took writes since: a frontend
  // whose route still names this peer must not read it (no route version says so here).
  if (protocol.On(Rule::kDowngradedRefusesReads) && region->downgraded()) {
    Reply r = RegionNotReadyReply(region_id, RegionStateName(region->state()));
    reply.code = r.code;
    reply.message = std::move(r.message);
    return reply;
  }
  // Route-fenced reads: a plan from a route older than one this region has seen may attribute
  // rows to the wrong region (a merge target already takes the merged-away range).
  if (protocol.On(Rule::kRouteFencedReads) && route_version < region->applied_route_version()) {
    reply.code = ReplyCode::kPartitionExprVersionMismatch;
    reply.message = "Route version mismatch for region " + region_id.ToString() +
                    ": request planned under route version " + std::to_string(route_version) +
                    ", region has seen " + std::to_string(region->applied_route_version());
    return reply;
  }
  // Fenced reads: the region serves reads with its committed expression, also while staging.
  if (protocol.On(Rule::kFencedReads) && planned_version.has_value() &&
      *planned_version != region->committed_expr_version()) {
    Reply r = VersionMismatchReply(region_id, *planned_version, region->committed_expr_version());
    reply.code = r.code;
    reply.message = std::move(r.message);
    return reply;
  }
  const TableSchema& schema = region->schema();
  // Each file's rows are sorted (a flush writes them so), the memtable index too: the scan
  // merges these runs rather than sorting every row again.
  FileRowReader reader(*region, store, protocol);
  std::vector<SeqRowRef>& refs = reader.refs;
  std::vector<size_t>& runs = reader.runs;
  refs.reserve(region->memtable_rows());
  auto add_file = [&](FileId file_id) {
    if (reader.Add(file_id)) return true;
    reply.code = ReplyCode::kUnexpected;
    reply.message = "Failed to read SST file " + std::to_string(file_id.value) + " of region " +
                    region_id.ToString() + ": not found";
    return false;
  };
  for (FileId file_id : region->version().files) {
    if (!add_file(file_id)) return reply;
  }
  if (protocol.On(Rule::kDurableStaging) && region->staging().has_value()) {
    for (FileId file_id : OwnStagedFiles(*region, store)) {
      if (!add_file(file_id)) return reply;
    }
  }
  // An unfiltered count(*) of an append-mode region is answered from statistics: GreptimeDB's
  // region scan reports its files' and memtables' row counts as exact (scan_region.rs,
  // total_rows; table/scan.rs, partition_statistics) and DataFusion replaces the count with
  // that number, so rows of a shared file outside the region's expression are counted too.
  // Rule::kExactCountStatistics (#9154) keeps the statistics only when no file is filtered.
  if (count_only && schema.append_mode &&
      !(protocol.On(Rule::kExactCountStatistics) && reader.any_filtered)) {
    reply.count = reader.file_rows + region->memtable_sorted().size();
    return reply;
  }
  // Memtable rows are never partition-filtered.
  runs.push_back(refs.size());
  refs.insert(refs.end(), region->memtable_sorted().begin(), region->memtable_sorted().end());
  MergeSortedRuns(schema, refs, runs, /*dedup=*/!schema.append_mode);
  if (count_only) {
    reply.count = refs.size();
    return reply;
  }
  reply.rows.reserve(refs.size());
  for (const SeqRowRef& ref : refs) reply.rows.push_back(*ref.row);
  return reply;
}

bool Datanode::OpenFromManifest(const RegionManifest& manifest, RegionState state,
                                const std::vector<StagingAction>* restore_staging,
                                ReplayFaults* faults, bool fail_closed, bool skip_replay) {
  const RegionId id = manifest.region_id;
  auto [it, inserted] = regions_.emplace(id, Region(manifest, state));
  REPARTSIM_ASSERT(inserted);
  Region& region = it->second;
  uint64_t replay_after = manifest.flushed_entry_id;
  if (restore_staging != nullptr && !restore_staging->empty()) {
    std::optional<StagingInfo> info = StagingInfoFromActions(*restore_staging);
    if (info.has_value()) {
      uint64_t staged_entry = 0;
      uint64_t staged_sequence = 0;
      for (const StagingAction& a : *restore_staging) {
        staged_entry = std::max(staged_entry, a.flushed_entry_id);
        staged_sequence = std::max(staged_sequence, a.flushed_sequence);
      }
      region.RestoreStaging(std::move(*info), staged_entry, staged_sequence);
      replay_after = std::max(replay_after, staged_entry);
    }
  }
  RegionWal& wal = wals_[id];
  // Replay the WAL entries after the flushed entry id (manifest first, then WAL).
  for (const WriteBatchPtr& batch : wal.entries()) {
    if (skip_replay) break;
    if (batch->entry_id <= replay_after) continue;
    if (faults != nullptr && faults->entry_fails && faults->entry_fails()) {
      faults->failures.push_back({id, batch->entry_id, batch->rows.size(), fail_closed});
      if (!fail_closed) {
        // mito's replay discards the apply result: the rows are skipped, but the entry's
        // sequences are published all the same (region_write_ctx.rs: a memtable error does
        // not set `failed`, so publish_sequence_and_entry_id runs), and the next write takes
        // a sequence after them. Reusing one would put a later write's rows at or below the
        // skipped entry's when a second replay applies both.
        region.AdvanceSequence(batch->sequence_last());
        continue;
      }
      regions_.erase(it);
      failed_opens_.insert(id);
      hosted_.insert(id);
      return false;
    }
    region.AppendMemtable(batch);
  }
  if (wal.last_entry_id() > region.last_entry_id()) region.set_last_entry_id(wal.last_entry_id());
  for (const auto& [file, sequence] : manifest.file_sequences) region.AdvanceSequence(sequence);
  hosted_.insert(id);
  failed_opens_.erase(id);
  pending_opens_.erase(id);  // opened by a request before its turn in a background reopen
  return true;
}

std::optional<StagingInfo> StagingInfoFromActions(const std::vector<StagingAction>& actions) {
  if (actions.empty()) return std::nullopt;
  const StagingAction& first = actions.front();
  if (first.kind == StagingAction::Kind::kRejectAllWrites) return StagingInfo::RejectAllWrites();
  if (first.kind != StagingAction::Kind::kPartitionExprChange) return std::nullopt;
  StagingInfo info;
  info.directive = StagingDirective::kUpdatePartitionExpr;
  info.partition_expr = first.partition_expr;
  info.version = ExprVersion(first.partition_expr ? &*first.partition_expr : nullptr);
  return info;
}

Reply Datanode::HandleCreateRegion(RegionId region_id, const TableSchema& schema,
                                   std::optional<PartitionExpr> expr, ObjectStore& store,
                                   CrashHook& crash, bool awaiting_apply, const Protocol& protocol,
                                   uint64_t route_version) {
  REPARTSIM_ASSERT(up_);
  if (regions_.count(region_id) != 0) return Reply::Ok();
  if (protocol.On(Rule::kDropTombstones)) {
    std::optional<uint64_t> dropped_at = store.Tombstone(region_id);
    if (dropped_at.has_value() && route_version < *dropped_at) {
      return Reply{ReplyCode::kUnexpected,
                   "Region " + region_id.ToString() + " was dropped under route version " +
                       std::to_string(*dropped_at) + "; CreateRegion sent under " +
                       std::to_string(route_version) + " is stale",
                   0};
    }
  }
  const RegionManifest* existing = store.Manifest(region_id);
  if (existing == nullptr) {
    RegionManifest manifest;
    manifest.region_id = region_id;
    manifest.schema = std::make_shared<const TableSchema>(schema);
    manifest.partition_expr = std::move(expr);
    manifest.manifest_version = 1;
    manifest.awaiting_apply = awaiting_apply;
    store.PutManifest(std::move(manifest));
    existing = store.Manifest(region_id);
    if (crash.ShouldCrash("datanode.create.after_manifest")) return Reply::Crashed();
  }
  // An existing manifest (a re-create after a metasrv retry, maybe on another node) is
  // adopted as it is, as mito's RegionOpener::create opens an existing region.
  OpenFromManifest(*existing, RegionState::kWritable);
  return Reply::Ok();
}

Reply Datanode::HandleOpenRegion(RegionId region_id, const ObjectStore& store,
                                 const Protocol& protocol) {
  REPARTSIM_ASSERT(up_);
  if (regions_.count(region_id) != 0) return Reply::Ok();
  const RegionManifest* manifest = store.Manifest(region_id);
  if (manifest == nullptr) return RegionNotFoundReply(region_id);
  // Staging is not restored in greptime (manager.rs: "TODO(weny): open the staging manifest if
  // exists"); durable staging restores it, suspended.
  const std::vector<StagingAction>* staged =
      protocol.On(Rule::kDurableStaging) ? store.Staging(region_id) : nullptr;
  OpenFromManifest(*manifest, RegionState::kFollower, staged);
  return Reply::Ok();
}

Reply Datanode::HandleOpenRegion(RegionId region_id, const ObjectStore& store) {
  return HandleOpenRegion(region_id, store, Protocol::Greptime());
}

Reply Datanode::HandleCloseRegion(RegionId region_id) {
  REPARTSIM_ASSERT(up_);
  regions_.erase(region_id);
  hosted_.erase(region_id);
  pending_opens_.erase(region_id);
  return Reply::Ok();
}

Reply Datanode::HandleDropRegion(RegionId region_id, ObjectStore& store, CrashHook& crash,
                                 const Protocol& protocol, uint64_t route_version) {
  REPARTSIM_ASSERT(up_);
  if (protocol.On(Rule::kDropTombstones)) store.PutTombstone(region_id, route_version);
  if (regions_.count(region_id) == 0 && hosted_.count(region_id) == 0) return Reply::Ok();
  regions_.erase(region_id);
  store.DeleteManifest(region_id);
  if (crash.ShouldCrash("datanode.drop.after_manifest")) return Reply::Crashed();
  store.ClearStaging(region_id);
  store.ClearRemapBlobs(region_id);
  wals_.erase(region_id);
  hosted_.erase(region_id);
  pending_opens_.erase(region_id);
  // SST files stay: other regions may share them (docs/protocol.md section 2.4); GC removes them.
  return Reply::Ok();
}

Reply Datanode::HandleFlush(RegionId region_id, ObjectStore& store, CrashHook& crash,
                            const Protocol& protocol) {
  REPARTSIM_ASSERT(up_);
  Region* region = FindMutable(region_id);
  if (region == nullptr) return RegionNotFoundReply(region_id);
  if (!region->is_flushable())
    return RegionNotReadyReply(region_id, RegionStateName(region->state()));
  if (!FlushMemtable(*region, store, &crash, protocol)) return Reply::Crashed();
  return Reply::Ok();
}

Reply Datanode::HandleCompact(RegionId region_id, ObjectStore& store, CrashHook& crash,
                              const Protocol& protocol, sim::SimTime now) {
  REPARTSIM_ASSERT(up_);
  Region* region = FindMutable(region_id);
  if (region == nullptr) return RegionNotFoundReply(region_id);
  // The compaction scheduler runs on writable leaders only; staging skips compaction.
  if (region->state() != RegionState::kWritable) {
    return RegionNotReadyReply(region_id, RegionStateName(region->state()));
  }
  region->set_compaction_requested(false);  // this compaction answers any pending trigger
  const std::set<FileId> inputs = region->version().files;
  if (inputs.size() < 2) return Reply::Ok(0);
  FileRowReader reader(*region, store, protocol);
  uint64_t max_file_sequence = 0;  // the largest FileMeta.sequence of the inputs
  for (FileId file_id : inputs) {
    if (!reader.Add(file_id)) {
      return Reply{ReplyCode::kUnexpected,
                   "Failed to read SST file " + std::to_string(file_id.value) +
                       " for compaction of region " + region_id.ToString() + ": not found",
                   0};
    }
    // FileMeta.sequence: an adopted file's admission sequence, else its newest row's.
    const auto admitted = region->version().file_sequences.find(file_id);
    if (admitted != region->version().file_sequences.end()) {
      max_file_sequence = std::max(max_file_sequence, admitted->second);
      continue;
    }
    for (const SstRow& r : store.File(file_id)->rows) {
      max_file_sequence = std::max(max_file_sequence, r.sequence);
    }
  }
  const TableSchema& schema = region->schema();
  MergeSortedRuns(schema, reader.refs, reader.runs, /*dedup=*/!schema.append_mode);
  // compactor.rs at the modelled commit: every output row is written at the largest input
  // FileMeta.sequence (SstWriteRequest.max_sequence overrides the rows' own sequences).
  const bool effective = protocol.On(Rule::kCompactionEffectiveSequences);
  std::vector<SstRow> rows;
  rows.reserve(reader.refs.size());
  for (const SeqRowRef& ref : reader.refs) {
    rows.push_back(SstRow{effective ? ref.sequence : max_file_sequence, *ref.row});
  }
  const uint64_t written = rows.size();
  const FileId output = store.AddFile(region_id, region->version().partition_expr, std::move(rows));
  if (crash.ShouldCrash("datanode.compact.after_sst")) return Reply::Crashed();
  CommitManifestEdit(*region, store, protocol, [&](RegionManifest& m) {
    for (FileId f : inputs) {
      m.files.erase(f);
      m.file_sequences.erase(f);
      m.removed_files[f] = now.ms;
    }
    m.files.insert(output);
  });
  return Reply::Ok(written);
}

bool Datanode::FlushMemtable(Region& region, ObjectStore& store, CrashHook* crash,
                             const Protocol& protocol) {
  if (region.memtable().empty()) return true;
  const RegionId region_id = region.id();
  const TableSchema& schema = region.schema();
  std::vector<SeqRowRef> refs = region.memtable_sorted();  // already in file order
  MergeSortedRuns(schema, refs, {0}, /*dedup=*/!schema.append_mode);
  std::vector<SstRow> rows;
  rows.reserve(refs.size());
  for (const SeqRowRef& ref : refs) rows.push_back(SstRow{ref.sequence, *ref.row});
  const FileId file = store.AddFile(
      region_id, region.FlushExpr(protocol.On(Rule::kStagingFlushExpr)), std::move(rows));
  if (crash != nullptr && crash->ShouldCrash("datanode.flush.after_sst")) return false;
  const uint64_t flushed_entry_id = region.last_entry_id();
  const uint64_t flushed_sequence = region.last_sequence();
  if (region.staging().has_value()) {
    // handle_flush_finished in staging: the file goes to the staging manifest only and is not
    // added to the visible version; the WAL is still obsoleted below.
    StagingAction edit;
    edit.kind = StagingAction::Kind::kEdit;
    edit.files_to_add = {file};
    edit.flushed_entry_id = flushed_entry_id;
    edit.flushed_sequence = flushed_sequence;
    store.AppendStagingAction(region_id, std::move(edit));
  } else {
    CommitManifestEdit(region, store, protocol, [&](RegionManifest& m) {
      m.files.insert(file);
      m.flushed_entry_id = flushed_entry_id;
      m.flushed_sequence = flushed_sequence;
    });
    // handle_flush_finished schedules a compaction (schedule_compaction skips staging).
    region.set_compaction_requested(true);
  }
  if (crash != nullptr && crash->ShouldCrash("datanode.flush.after_manifest")) return false;
  wals_[region_id].Truncate(flushed_entry_id);
  // Before GreptimeDB #6962 a flush while staging left the flushed memtables in place: their
  // rows stayed readable from memory and, once the staged file became visible, were there
  // twice (an append-mode region returns both).
  if (!region.staging().has_value() || protocol.On(Rule::kStagingFlushDropsMemtable)) {
    region.ClearMemtable();
  }
  return true;
}

void Datanode::CommitManifestEdit(Region& region, ObjectStore& store, const Protocol& protocol,
                                  const std::function<void(RegionManifest&)>& edit) {
  RegionManifest memory = region.version();
  edit(memory);
  memory.manifest_version += 1;
  const RegionManifest* stored = store.Manifest(region.id());
  if (!protocol.On(Rule::kExitStagingAppliesEdits) && stored != nullptr) {
    // GreptimeDB appends each edit to the manifest's action log where the model stores the
    // manifest whole: the edit goes to the stored manifest too, which may hold edits a
    // staging exit did not apply in memory.
    RegionManifest on_disk = *stored;
    edit(on_disk);
    on_disk.manifest_version = std::max(on_disk.manifest_version + 1, memory.manifest_version);
    memory.manifest_version = on_disk.manifest_version;
    store.PutManifest(std::move(on_disk));
  } else {
    store.PutManifest(memory);
  }
  REPARTSIM_ASSERT(store.Manifest(region.id()) != nullptr);
  store.MaybeStartCheckpoint(region.id(), store.Manifest(region.id())->manifest_version,
                             checkpoint_distance_);
  region.set_version(std::move(memory));
}

void Datanode::Hash(sim::Hasher& h) const {
  id_.Hash(h);
  h.Add(up_);
  h.Add(static_cast<uint64_t>(regions_.size()));
  for (const auto& [id, region] : regions_) region.Hash(h);
  h.Add(static_cast<uint64_t>(wals_.size()));
  for (const auto& [id, wal] : wals_) {
    id.Hash(h);
    wal.Hash(h);
  }
  h.Add(static_cast<uint64_t>(hosted_.size()));
  for (RegionId id : hosted_) id.Hash(h);
  // Only when there are some, so that runs without replay faults hash as before.
  if (!failed_opens_.empty()) {
    h.Add(static_cast<uint64_t>(failed_opens_.size()));
    for (RegionId id : failed_opens_) id.Hash(h);
  }
  if (!pending_opens_.empty()) {
    h.Add(static_cast<uint64_t>(pending_opens_.size())).Add(next_open_.ms);
    for (RegionId id : pending_opens_) id.Hash(h);
  }
}

void Datanode::HashCompactionRequests(sim::Hasher& h) const {
  for (const auto& [id, region] : regions_) {
    if (region.compaction_requested()) id.Hash(h);
  }
}

uint64_t Datanode::Fingerprint() const {
  sim::Hasher h;
  Hash(h);
  return h.Finish();
}

}  // namespace repartsim::model
