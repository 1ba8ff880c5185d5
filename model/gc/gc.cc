#include "model/gc/gc.h"

#include <set>
#include <string>

#include "model/meta/meta_codec.h"
#include "model/meta/meta_keys.h"
#include "model/rules.h"
#include "sim/assert.h"

namespace repartsim::model {
namespace {

TableRepart ReadRepart(const KvStore& kv, TableId table) {
  const std::string* raw = kv.Find(TableRepartKey(table));
  if (raw == nullptr) return TableRepart{};
  sim::Result<TableRepart> decoded = DecodeTableRepart(*raw);
  REPARTSIM_ASSERT_MSG(decoded.ok(), "malformed __table_repart value");
  return std::move(decoded).value();
}

bool ManifestReferences(const ObjectStore& store, RegionId region, FileId file) {
  const RegionManifest* manifest = store.Manifest(region);
  return manifest != nullptr && manifest->files.count(file) != 0;
}

// greptime (gc/dropped.rs + the cross-region reference check): the writer's normal manifest,
// then the normal manifests of the writer's destinations in table_repart.
bool GreptimeReferenced(const ObjectStore& store, const TableRepart& repart, const SstFile& file) {
  if (ManifestReferences(store, file.writer, file.id)) return true;
  auto dsts = repart.src_to_dst.find(file.writer);
  if (dsts == repart.src_to_dst.end()) return false;
  for (RegionId dst : dsts->second) {
    if (ManifestReferences(store, dst, file.id)) return true;
  }
  return false;
}

// Every file id any normal manifest, staging manifest or remap blob in the store references.
std::set<FileId> AllReferences(const ObjectStore& store) {
  std::set<FileId> refs;
  for (const auto& [region, manifest] : store.manifests()) {
    refs.insert(manifest.files.begin(), manifest.files.end());
  }
  for (const auto& [region, actions] : store.staging()) {
    for (const StagingAction& a : actions)
      refs.insert(a.files_to_add.begin(), a.files_to_add.end());
  }
  for (const auto& [central, blobs] : store.remap_blobs()) {
    for (const auto& [target, manifest] : blobs) {
      refs.insert(manifest.files.begin(), manifest.files.end());
    }
  }
  return refs;
}

}  // namespace

GcReport RunGc(ObjectStore& store, const KvStore& kv, TableId table, const Protocol& protocol) {
  GcReport report;
  const bool positive_proof = protocol.On(Rule::kGcPositiveProof);
  const TableRepart repart = positive_proof ? TableRepart{} : ReadRepart(kv, table);
  const std::set<FileId> refs = positive_proof ? AllReferences(store) : std::set<FileId>{};
  for (const auto& [id, file] : store.files()) {
    if (file->writer.table_id() != table) continue;
    ++report.files_examined;
    const bool referenced =
        positive_proof ? refs.count(id) != 0 : GreptimeReferenced(store, repart, *file);
    if (!referenced) report.deleted.push_back(id);
  }
  for (FileId id : report.deleted) {
    const bool erased = store.DeleteFile(id);
    REPARTSIM_ASSERT(erased);
  }
  return report;
}

}  // namespace repartsim::model
