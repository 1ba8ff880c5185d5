// The shared object store (S3 in the real system): durable across every node crash, shared by
// all datanodes. Holds immutable SST files, each recording its rows with sequence numbers, the
// region that wrote it and the partition expression (canonical text + version) it was written
// under (FileMeta.partition_expr); normal region manifests keyed by region id; per-region staging
// manifests (a list of staged actions, docs/protocol.md section 10.5); and remap blobs in a central
// region's staging storage. File ids come from a durable counter. Plain value: copy = snapshot
// (files are shared immutable objects); Hash covers everything in key order.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/meta/ids.h"
#include "model/partition/expr.h"
#include "model/partition/schema.h"
#include "sim/fingerprint.h"

namespace repartsim::model {

struct FileId {
  uint64_t value = 0;
  friend constexpr auto operator<=>(FileId, FileId) = default;
};

struct SstRow {
  uint64_t sequence = 0;
  Row row;
};

struct SstFile {
  FileId id;
  RegionId writer;            // the region that flushed it
  std::string expr_text;      // canonical text of the expression it was written under; "" = none
  uint64_t expr_version = 0;  // ExprVersion of that expression
  std::vector<SstRow> rows;   // sorted by (key, sequence desc); deduped unless append mode
  uint64_t content_hash = 0;
};

using SstFilePtr = std::shared_ptr<const SstFile>;

// The committed state of a region as its normal manifest records it (RegionMetadata + the
// SST files of its version + the flushed WAL position).
struct RegionManifest {
  RegionId region_id;
  std::shared_ptr<const TableSchema> schema;
  std::optional<PartitionExpr> partition_expr;
  std::set<FileId> files;
  uint64_t flushed_entry_id = 0;  // WAL entries <= this are in files
  uint64_t flushed_sequence = 0;  // largest sequence in files
  uint64_t manifest_version = 0;  // bumped by every committed edit
  // Rule::kTargetSequenceForeignFiles: files written by another region that this region
  // adopted, with the admission sequence their rows rank at here.
  std::map<FileId, uint64_t> file_sequences;
  // The manifest's removed_files: files an edit (a compaction) took out of the version, with
  // the virtual time (ms) of the edit; GC deletes them after a lingering time.
  std::map<FileId, int64_t> removed_files;
  // A region allocated by a repartition under Rule::kFenceAllocatedRegions: it refuses writes
  // and reads until it applied its remapped manifest, so nothing can be read from it (or
  // written to it) before it holds the rows it takes over. Durable: survives a reopen.
  bool awaiting_apply = false;
  // A new region that applied its remapped manifest under Rule::kFenceNewRegionsUntilCommit:
  // it still refuses writes until a Leader lease (the group's ExitStaging committed). Durable.
  bool awaiting_commit = false;

  std::string ExprText() const;
  uint64_t ExprVersionValue() const;
  void Hash(sim::Hasher& h) const;
};

// An action in a staging manifest (mito RegionMetaAction subset). kRejectAllWrites is not a
// mito action: under Rule::kDurableStaging it records the RejectAllWrites directive so that a
// reopen can restore it (UpdatePartitionExpr is recorded by its kPartitionExprChange).
struct StagingAction {
  enum class Kind : uint8_t { kPartitionExprChange, kEdit, kRejectAllWrites };
  Kind kind = Kind::kEdit;
  std::optional<PartitionExpr> partition_expr;  // kPartitionExprChange
  std::vector<FileId> files_to_add;             // kEdit
  uint64_t flushed_entry_id = 0;                // kEdit from a staging flush; 0 otherwise
  uint64_t flushed_sequence = 0;

  void Hash(sim::Hasher& h) const;
};

class ObjectStore {
 public:
  // Writes a new immutable SST and returns its id.
  FileId AddFile(RegionId writer, const std::optional<PartitionExpr>& expr,
                 std::vector<SstRow> rows);
  const SstFile* File(FileId id) const;
  bool DeleteFile(FileId id);
  const std::map<FileId, SstFilePtr>& files() const { return files_; }

  void PutManifest(RegionManifest manifest);
  const RegionManifest* Manifest(RegionId region) const;
  bool DeleteManifest(RegionId region);
  const std::map<RegionId, RegionManifest>& manifests() const { return manifests_; }

  // Staging manifest directory of a region (hidden until merged).
  void ClearStaging(RegionId region);
  void AppendStagingAction(RegionId region, StagingAction action);
  // nullptr when the region has no staged actions.
  const std::vector<StagingAction>* Staging(RegionId region) const;
  const std::map<RegionId, std::vector<StagingAction>>& staging() const { return staging_; }

  // Remapped manifests stored in `central`'s staging blob storage ("remap_manifest_{target}").
  void PutRemapBlob(RegionId central, RegionManifest manifest);
  const RegionManifest* RemapBlob(RegionId central, RegionId target) const;
  void ClearRemapBlobs(RegionId central);
  // central -> (target -> remapped manifest).
  const std::map<RegionId, std::map<RegionId, RegionManifest>>& remap_blobs() const {
    return remap_blobs_;
  }

  // Drop tombstones (Rule::kDropTombstones): the newest route version a DropRegion of
  // `region` was sent under; a region directory's drop marker, so it outlives the datanode.
  void PutTombstone(RegionId region, uint64_t route_version);
  // nullopt when `region` was never dropped under the rule.
  std::optional<uint64_t> Tombstone(RegionId region) const;

  // Manifest checkpoints (GreptimeDB's RegionManifest checkpointer, docs/protocol.md section
  // 10.10): the manifest version a region's last checkpoint covers, and whether a checkpoint
  // is running (its `_last_checkpoint` published, the deltas it covers not all deleted yet).
  struct Checkpoint {
    uint64_t last_version = 0;
    bool in_flight = false;
  };
  // maybe_do_checkpoint: starts a checkpoint of `region` up to `version` when `distance` > 0,
  // none is running and `version` is at least `distance` past the last one. True iff started.
  bool MaybeStartCheckpoint(RegionId region, uint64_t version, uint64_t distance);
  // Ends the running checkpoint of `region` (its covered deltas are gone); false when none
  // runs.
  bool FinishCheckpoint(RegionId region);
  bool CheckpointInFlight(RegionId region) const;
  const std::map<RegionId, Checkpoint>& checkpoints() const { return checkpoints_; }

  uint64_t next_file_id() const { return next_file_id_; }
  void Hash(sim::Hasher& h) const;
  uint64_t Fingerprint() const;

 private:
  uint64_t next_file_id_ = 1;
  std::map<FileId, SstFilePtr> files_;
  std::map<RegionId, RegionManifest> manifests_;
  std::map<RegionId, std::vector<StagingAction>> staging_;
  std::map<RegionId, std::map<RegionId, RegionManifest>> remap_blobs_;
  std::map<RegionId, uint64_t> tombstones_;
  std::map<RegionId, Checkpoint> checkpoints_;
};

}  // namespace repartsim::model
