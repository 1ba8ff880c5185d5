// Staging handlers of Datanode (docs/protocol.md section 10.5): EnterStaging, RemapManifest on the
// central region, ApplyStagingManifest with idempotent replay and the merge of staged actions.
#include <algorithm>
#include <utility>

#include "model/datanode/datanode.h"
#include "model/node/refusal.h"
#include "model/protocol/rules.h"
#include "sim/assert.h"

namespace repartsim::model {
namespace {

std::string ExprTextOf(const std::optional<PartitionExpr>& expr) {
  return expr ? expr->CanonicalText() : std::string("None");
}

Reply StagingMismatch(RegionId region, const std::string& current, const std::string& request) {
  return Reply{ReplyCode::kStagingPartitionExprMismatch,
               "Staging partition expr mismatch for region " + region.ToString() +
                   ", current: " + current + ", request: " + request,
               0};
}

Reply Unexpected(std::string message) {
  return Reply{ReplyCode::kUnexpected, std::move(message), 0};
}

std::string DirectiveText(const StagingInfo& info) {
  if (info.directive == StagingDirective::kRejectAllWrites) return "RejectAllWrites";
  return "UpdatePartitionExpr(" + ExprTextOf(info.partition_expr) + ")";
}

}  // namespace

Reply Datanode::HandleEnterStaging(RegionId region_id, const StagingInfo& directive,
                                   ObjectStore& store, CrashHook& crash) {
  return HandleEnterStaging(region_id, directive, Protocol::Greptime(), store, crash);
}

Reply Datanode::HandleEnterStaging(RegionId region_id, const StagingInfo& directive,
                                   const Protocol& protocol, ObjectStore& store, CrashHook& crash) {
  REPARTSIM_ASSERT(up_);
  Region* region = FindMutable(region_id);
  if (region == nullptr) return RegionNotFoundReply(region_id);
  if (region->state() == RegionState::kStaging) {
    if (*region->staging() == directive) return Reply::Ok();
    return StagingMismatch(region_id, DirectiveText(*region->staging()), DirectiveText(directive));
  }
  if (region->state() != RegionState::kWritable) {
    return RegionNotReadyReply(region_id, RegionStateName(region->state()));
  }
  // A non-empty memtable is flushed first, normally, with the request queued behind it.
  Reply flushed = HandleFlush(region_id, store, crash, protocol);
  if (!flushed.ok()) return flushed;
  // Rule::kFenceCheckpoints (#8847): the transition waits for a running checkpoint, which the
  // flush's edit may have started, so no delta disappears under a later manifest read.
  if (protocol.On(Rule::kFenceCheckpoints)) store.FinishCheckpoint(region_id);
  region->set_state(RegionState::kEnteringStaging);
  store.ClearStaging(region_id);
  store.ClearRemapBlobs(region_id);
  if (crash.ShouldCrash("datanode.enter_staging.after_clear")) return Reply::Crashed();
  if (directive.directive == StagingDirective::kUpdatePartitionExpr) {
    StagingAction change;
    change.kind = StagingAction::Kind::kPartitionExprChange;
    change.partition_expr = directive.partition_expr;
    store.AppendStagingAction(region_id, std::move(change));
  } else if (protocol.On(Rule::kDurableStaging)) {
    // Not a mito action: it makes the RejectAllWrites directive restorable on reopen.
    StagingAction marker;
    marker.kind = StagingAction::Kind::kRejectAllWrites;
    store.AppendStagingAction(region_id, std::move(marker));
  }
  region->EnterStaging(directive);
  return Reply::Ok();
}

Reply Datanode::HandleRemapManifest(
    RegionId central_id, const std::vector<RegionId>& inputs,
    const std::map<RegionId, std::vector<RegionId>>& mapping,
    const std::map<RegionId, std::optional<PartitionExpr>>& target_exprs, ObjectStore& store,
    CrashHook& crash, std::optional<RegionId> vanished) {
  REPARTSIM_ASSERT(up_);
  Region* central = FindMutable(central_id);
  if (central == nullptr) return RegionNotFoundReply(central_id);
  if (central->state() != RegionState::kStaging) {
    return RegionNotReadyReply(central_id, RegionStateName(central->state()), "Leader(Staging)");
  }
  std::map<RegionId, const RegionManifest*> sources;
  for (RegionId input : inputs) {
    if (input.table_id() != central_id.table_id()) {
      return Unexpected("Region " + input.ToString() + " is not in the table of " +
                        central_id.ToString());
    }
    const RegionManifest* m = store.Manifest(input);
    if (m == nullptr) return Unexpected("Manifest of region " + input.ToString() + " not found");
    if (vanished == input) {
      // load_manifest listed the deltas before the checkpoint's cleanup deleted one of them.
      return Unexpected(std::string(kVanishedDeltaError) + input.ToString() +
                        ": a delta listed before a running checkpoint deleted it is NotFound");
    }
    sources[input] = m;
  }
  std::map<RegionId, RegionManifest> results;
  for (const auto& [target, expr] : target_exprs) {
    auto reused = sources.find(target);
    RegionManifest out;
    if (reused != sources.end()) {
      out = *reused->second;  // keeps flushed_entry_id and sequences
      out.files.clear();
    } else {
      out.region_id = target;
      out.schema = central->version().schema;
    }
    out.partition_expr = expr;
    results.emplace(target, std::move(out));
  }
  std::set<FileId> placed;
  for (const auto& [src, dsts] : mapping) {
    auto source = sources.find(src);
    if (source == sources.end()) return Unexpected("Region " + src.ToString() + " is not an input");
    for (RegionId dst : dsts) {
      auto target = results.find(dst);
      if (target == results.end())
        return Unexpected("Region " + dst.ToString() + " is not a target");
      // Every file meta of src is copied into dst; the union dedups by file id.
      target->second.files.insert(source->second->files.begin(), source->second->files.end());
      placed.insert(source->second->files.begin(), source->second->files.end());
    }
  }
  for (const auto& [id, manifest] : sources) {
    for (FileId f : manifest->files) {
      if (placed.count(f) == 0) {
        return Unexpected("File " + std::to_string(f.value) + " of region " + id.ToString() +
                          " is lost by the remap");
      }
    }
  }
  for (auto& [target, manifest] : results) store.PutRemapBlob(central_id, std::move(manifest));
  if (crash.ShouldCrash("datanode.remap.after_blob")) return Reply::Crashed();
  return Reply::Ok();
}

Reply Datanode::HandleApplyStagingManifest(RegionId region_id,
                                           const std::optional<PartitionExpr>& expr,
                                           RegionId central, ObjectStore& store, CrashHook& crash) {
  return HandleApplyStagingManifest(region_id, expr, central, Protocol::Greptime(), store, crash);
}

namespace {

// Rule::kApplySkipsRemovedFiles: `file` is one the region had and a compaction since removed
// (its rows are in the output): attaching it again would bring its rows back twice.
bool RemovedBefore(const Region& region, FileId file, const Protocol& protocol) {
  return protocol.On(Rule::kApplySkipsRemovedFiles) &&
         region.version().removed_files.count(file) != 0;
}

// PR #8946 as its description states it [inferred: its code was not read]: a file that
// another region wrote keeps its bytes, and the target's manifest gives it a target-local
// admission sequence that reads rank its rows at. The model gives the files one apply adopts
// consecutive sequences after the region's last one, in the order of their rows' source
// sequences (so a newer source file still outranks an older one), and numbers later writes
// after them.
void AdmitForeignFiles(Region& region, RegionManifest& merged, const ObjectStore& store) {
  std::vector<std::pair<uint64_t, FileId>> adopted;  // (newest source sequence, file)
  for (FileId f : merged.files) {
    const SstFile* file = store.File(f);
    if (file == nullptr || file->writer == merged.region_id) continue;
    if (merged.file_sequences.count(f) != 0) continue;
    uint64_t newest = 0;
    for (const SstRow& r : file->rows) newest = std::max(newest, r.sequence);
    adopted.push_back({newest, f});
  }
  std::sort(adopted.begin(), adopted.end());
  uint64_t sequence = region.last_sequence();
  for (const auto& [newest, f] : adopted) merged.file_sequences.emplace(f, ++sequence);
  region.AdvanceSequence(sequence);
}

}  // namespace

Reply Datanode::HandleApplyStagingManifest(RegionId region_id,
                                           const std::optional<PartitionExpr>& expr,
                                           RegionId central, const Protocol& protocol,
                                           ObjectStore& store, CrashHook& crash) {
  REPARTSIM_ASSERT(up_);
  Region* region = FindMutable(region_id);
  if (region == nullptr) return RegionNotFoundReply(region_id);
  const std::string request = ExprTextOf(expr);
  if (region->state() != RegionState::kStaging) {
    if (region->version().partition_expr != expr) {
      return RegionNotReadyReply(region_id, RegionStateName(region->state()), "Leader(Staging)");
    }
    // greptime (handle_apply_staging.rs): the committed expression equals the request, so the
    // region "already applied the staging manifest": Ok, no file is looked at. A new region
    // that left staging without applying (a stale Leader lease) then never gets its files.
    if (!protocol.On(Rule::kApplyStagingChecksFiles)) return Reply::Ok();
    const RegionManifest* blob = store.RemapBlob(central, region_id);
    if (blob == nullptr || blob->partition_expr != expr) return Reply::Ok();  // a true replay
    std::vector<FileId> missing;
    for (FileId f : blob->files) {
      if (region->version().files.count(f) == 0 && !RemovedBefore(*region, f, protocol)) {
        missing.push_back(f);
      }
    }
    if (missing.empty()) return Reply::Ok();
    // Attach the remapped files now: the edit the skipped apply would have made.
    RegionManifest merged = region->version();
    merged.files.insert(missing.begin(), missing.end());
    merged.manifest_version += 1;
    if (merged.awaiting_apply && protocol.On(Rule::kFenceNewRegionsUntilCommit)) {
      merged.awaiting_commit = true;
    }
    merged.awaiting_apply = false;
    if (protocol.On(Rule::kTargetSequenceForeignFiles)) AdmitForeignFiles(*region, merged, store);
    store.PutManifest(merged);
    region->set_version(std::move(merged));
    return Reply::Ok();
  }
  const StagingInfo& staging = *region->staging();
  if (staging.directive != StagingDirective::kUpdatePartitionExpr ||
      staging.partition_expr != expr) {
    return StagingMismatch(region_id, DirectiveText(staging), request);
  }
  const RegionManifest* blob = store.RemapBlob(central, region_id);
  if (blob == nullptr) {
    return Unexpected("Remapped manifest of region " + region_id.ToString() +
                      " not found in central region " + central.ToString());
  }
  if (blob->partition_expr != expr) {
    return StagingMismatch(region_id, ExprTextOf(blob->partition_expr), request);
  }
  StagingAction edit;
  edit.kind = StagingAction::Kind::kEdit;
  for (FileId f : blob->files) {
    if (!RemovedBefore(*region, f, protocol)) edit.files_to_add.push_back(f);
  }
  store.AppendStagingAction(region_id, std::move(edit));
  if (crash.ShouldCrash("datanode.apply_staging.after_edit")) return Reply::Crashed();
  // exit_staging_on_success: merge the staged actions into the normal manifest.
  const std::vector<StagingAction>* actions = store.Staging(region_id);
  REPARTSIM_ASSERT(actions != nullptr);
  RegionManifest merged = region->version();
  int changes = 0;
  int edits = 0;
  for (const StagingAction& a : *actions) {
    if (a.kind == StagingAction::Kind::kRejectAllWrites) continue;  // never with this directive
    if (a.kind == StagingAction::Kind::kPartitionExprChange) {
      ++changes;
      merged.partition_expr = a.partition_expr;
      continue;
    }
    ++edits;
    merged.files.insert(a.files_to_add.begin(), a.files_to_add.end());
    merged.flushed_entry_id = std::max(merged.flushed_entry_id, a.flushed_entry_id);
    merged.flushed_sequence = std::max(merged.flushed_sequence, a.flushed_sequence);
  }
  if (changes != 1 || edits < 1) {
    return Unexpected("Staged actions of region " + region_id.ToString() +
                      " must hold one partition expr change and at least one edit");
  }
  merged.manifest_version += 1;
  if (merged.awaiting_apply && protocol.On(Rule::kFenceNewRegionsUntilCommit)) {
    merged.awaiting_commit = true;
  }
  merged.awaiting_apply = false;
  if (protocol.On(Rule::kTargetSequenceForeignFiles)) AdmitForeignFiles(*region, merged, store);
  store.PutManifest(merged);
  store.ClearStaging(region_id);
  store.ClearRemapBlobs(region_id);
  if (protocol.On(Rule::kExitStagingAppliesEdits)) {
    region->set_version(std::move(merged));
  } else {
    // Before GreptimeDB #6962 leaving staging applied the region change (the expression) to
    // the in-memory version but not the edits: the remapped files and the files flushed while
    // staging are in the stored manifest only, read again when the region is reopened.
    RegionManifest visible = region->version();
    visible.partition_expr = merged.partition_expr;
    visible.manifest_version = merged.manifest_version;
    visible.awaiting_apply = merged.awaiting_apply;
    visible.awaiting_commit = merged.awaiting_commit;
    region->set_version(std::move(visible));
  }
  region->ExitStaging();
  // Before GreptimeDB #7695 the exit applied a RegionChange, which rebuilt the memtables: the
  // rows written while staging and not flushed were gone from reads (the WAL kept them).
  if (!protocol.On(Rule::kKeepMemtableOnApply)) region->ClearMemtable();
  return Reply::Ok();
}

}  // namespace repartsim::model
