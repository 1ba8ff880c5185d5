#include "model/datanode/object_store.h"

#include <utility>

#include "model/datanode/write_batch.h"
#include "model/meta/table_info.h"
#include "sim/assert.h"

namespace repartsim::model {

std::string RegionManifest::ExprText() const {
  return partition_expr ? partition_expr->CanonicalText() : std::string();
}

uint64_t RegionManifest::ExprVersionValue() const {
  return ExprVersion(partition_expr ? &*partition_expr : nullptr);
}

void RegionManifest::Hash(sim::Hasher& h) const {
  h.Add(awaiting_apply).Add(awaiting_commit);
  region_id.Hash(h);
  REPARTSIM_ASSERT(schema != nullptr);
  HashSchema(*schema, h);
  h.Add(ExprVersionValue());  // the cached hash of the expression's CanonicalText
  h.Add(static_cast<uint64_t>(files.size()));
  for (FileId f : files) h.Add(f.value);
  h.Add(flushed_entry_id);
  h.Add(flushed_sequence);
  h.Add(manifest_version);
  for (const auto& [file, sequence] : file_sequences) h.Add(file.value).Add(sequence);
  // Only hashed when present, so runs without compaction keep their fingerprints.
  if (!removed_files.empty()) {
    h.Add(static_cast<uint64_t>(removed_files.size()));
    for (const auto& [file, at_ms] : removed_files) h.Add(file.value).Add(at_ms);
  }
}

void StagingAction::Hash(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(kind));
  h.Add(partition_expr.has_value());
  if (partition_expr) h.Add(partition_expr->version());
  h.Add(static_cast<uint64_t>(files_to_add.size()));
  for (FileId f : files_to_add) h.Add(f.value);
  h.Add(flushed_entry_id);
  h.Add(flushed_sequence);
}

FileId ObjectStore::AddFile(RegionId writer, const std::optional<PartitionExpr>& expr,
                            std::vector<SstRow> rows) {
  auto file = std::make_shared<SstFile>();
  file->id = FileId{next_file_id_++};
  file->writer = writer;
  file->expr_text = expr ? expr->CanonicalText() : std::string();
  file->expr_version = ExprVersion(expr ? &*expr : nullptr);
  file->rows = std::move(rows);
  sim::Hasher h;
  h.Add(file->id.value);
  file->writer.Hash(h);
  h.Add(std::string_view(file->expr_text));
  h.Add(static_cast<uint64_t>(file->rows.size()));
  for (const SstRow& r : file->rows) {
    h.Add(r.sequence);
    h.Add(static_cast<uint64_t>(r.row.size()));
    for (const Value& v : r.row) v.Hash(h);
  }
  file->content_hash = h.Finish();
  FileId id = file->id;
  auto [it, inserted] = files_.emplace(id, std::move(file));
  REPARTSIM_ASSERT(inserted);
  return id;
}

const SstFile* ObjectStore::File(FileId id) const {
  auto it = files_.find(id);
  return it == files_.end() ? nullptr : it->second.get();
}

bool ObjectStore::DeleteFile(FileId id) { return files_.erase(id) == 1; }

void ObjectStore::PutManifest(RegionManifest manifest) {
  REPARTSIM_ASSERT(manifest.schema != nullptr);
  RegionId id = manifest.region_id;
  manifests_.insert_or_assign(id, std::move(manifest));
}

const RegionManifest* ObjectStore::Manifest(RegionId region) const {
  auto it = manifests_.find(region);
  return it == manifests_.end() ? nullptr : &it->second;
}

bool ObjectStore::DeleteManifest(RegionId region) {
  checkpoints_.erase(region);  // the region directory goes, its checkpoint with it
  return manifests_.erase(region) == 1;
}

void ObjectStore::ClearStaging(RegionId region) { staging_.erase(region); }

void ObjectStore::PutTombstone(RegionId region, uint64_t route_version) {
  uint64_t& stored = tombstones_[region];
  stored = std::max(stored, route_version);
}

std::optional<uint64_t> ObjectStore::Tombstone(RegionId region) const {
  auto it = tombstones_.find(region);
  if (it == tombstones_.end()) return std::nullopt;
  return it->second;
}

void ObjectStore::AppendStagingAction(RegionId region, StagingAction action) {
  staging_[region].push_back(std::move(action));
}

const std::vector<StagingAction>* ObjectStore::Staging(RegionId region) const {
  auto it = staging_.find(region);
  return it == staging_.end() ? nullptr : &it->second;
}

void ObjectStore::PutRemapBlob(RegionId central, RegionManifest manifest) {
  RegionId target = manifest.region_id;
  remap_blobs_[central].insert_or_assign(target, std::move(manifest));
}

const RegionManifest* ObjectStore::RemapBlob(RegionId central, RegionId target) const {
  auto it = remap_blobs_.find(central);
  if (it == remap_blobs_.end()) return nullptr;
  auto jt = it->second.find(target);
  return jt == it->second.end() ? nullptr : &jt->second;
}

void ObjectStore::ClearRemapBlobs(RegionId central) { remap_blobs_.erase(central); }

bool ObjectStore::MaybeStartCheckpoint(RegionId region, uint64_t version, uint64_t distance) {
  if (distance == 0) return false;
  auto it = checkpoints_.find(region);
  const uint64_t last = it == checkpoints_.end() ? 0 : it->second.last_version;
  if (version < last + distance || (it != checkpoints_.end() && it->second.in_flight)) {
    return false;
  }
  checkpoints_[region] = Checkpoint{version, true};
  return true;
}

bool ObjectStore::FinishCheckpoint(RegionId region) {
  auto it = checkpoints_.find(region);
  if (it == checkpoints_.end() || !it->second.in_flight) return false;
  it->second.in_flight = false;
  return true;
}

bool ObjectStore::CheckpointInFlight(RegionId region) const {
  auto it = checkpoints_.find(region);
  return it != checkpoints_.end() && it->second.in_flight;
}

void ObjectStore::Hash(sim::Hasher& h) const {
  h.Add(next_file_id_);
  h.Add(static_cast<uint64_t>(files_.size()));
  for (const auto& [id, file] : files_) h.Add(file->content_hash);
  h.Add(static_cast<uint64_t>(manifests_.size()));
  for (const auto& [id, manifest] : manifests_) manifest.Hash(h);
  h.Add(static_cast<uint64_t>(staging_.size()));
  for (const auto& [id, actions] : staging_) {
    id.Hash(h);
    h.Add(static_cast<uint64_t>(actions.size()));
    for (const StagingAction& a : actions) a.Hash(h);
  }
  // Only hashed when present, so runs without Rule::kDropTombstones keep their fingerprints.
  if (!tombstones_.empty()) {
    h.Add(static_cast<uint64_t>(tombstones_.size()));
    for (const auto& [region, version] : tombstones_) h.Add(region.value).Add(version);
  }
  // Only hashed when present, as the tombstones.
  if (!checkpoints_.empty()) {
    h.Add(static_cast<uint64_t>(checkpoints_.size()));
    for (const auto& [region, c] : checkpoints_) {
      h.Add(region.value).Add(c.last_version).Add(c.in_flight);
    }
  }
  h.Add(static_cast<uint64_t>(remap_blobs_.size()));
  for (const auto& [central, blobs] : remap_blobs_) {
    central.Hash(h);
    h.Add(static_cast<uint64_t>(blobs.size()));
    for (const auto& [target, manifest] : blobs) manifest.Hash(h);
  }
}

uint64_t ObjectStore::Fingerprint() const {
  sim::Hasher h;
  Hash(h);
  return h.Finish();
}

}  // namespace repartsim::model
