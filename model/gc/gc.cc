#include "model/gc/gc.h"

#include <string>

#include "model/meta/meta_codec.h"
#include "model/meta/meta_keys.h"
#include "model/protocol/rules.h"
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

// Every file id a staging manifest, a remap blob or the normal manifest of a region outside
// `route` in the store references: what the route regions' GetFileRefs answers cannot
// show. A route region's normal manifest is not read here: whether its leader's answer counts
// is Rule::kGcRefsNeedOpenRegions' business.
void AddEveryOtherReference(const ObjectStore& store, const std::set<RegionId>& route,
                            std::set<FileId>& refs) {
  for (const auto& [region, manifest] : store.manifests()) {
    if (route.count(region) != 0) continue;
    refs.insert(manifest.files.begin(), manifest.files.end());
  }
  for (const auto& [region, actions] : store.staging()) {
    for (const StagingAction& a : actions) {
      refs.insert(a.files_to_add.begin(), a.files_to_add.end());
    }
  }
  for (const auto& [central, blobs] : store.remap_blobs()) {
    for (const auto& [target, manifest] : blobs) {
      refs.insert(manifest.files.begin(), manifest.files.end());
    }
  }
}

}  // namespace

GcReport RunGc(ObjectStore& store, const KvStore& kv, const GcScope& scope,
               const Protocol& protocol) {
  GcReport report;
  std::set<FileId> refs;
  for (RegionId region : scope.route) {
    if (scope.unread.count(region) != 0) continue;
    if (const RegionManifest* m = store.Manifest(region)) {
      refs.insert(m->files.begin(), m->files.end());
    }
  }
  if (protocol.On(Rule::kGcPositiveProof)) {
    AddEveryOtherReference(store, std::set<RegionId>(scope.route.begin(), scope.route.end()), refs);
  }

  std::set<FileId> offered;
  for (RegionId region : scope.collectable) {
    const RegionManifest* m = store.Manifest(region);
    if (m == nullptr) continue;
    ++report.regions_collected;
    for (const auto& [file, removed_at_ms] : m->removed_files) {
      if (removed_at_ms + scope.lingering_ms <= scope.now.ms) offered.insert(file);
    }
  }
  std::set<RegionId> dropped;
  for (const auto& [src, dsts] : ReadRepart(kv, scope.table).src_to_dst) {
    if (store.Manifest(src) == nullptr) dropped.insert(src);
  }
  report.regions_collected += dropped.size();
  for (const auto& [id, file] : store.files()) {
    if (file->writer.table_id() != scope.table) continue;
    ++report.files_examined;
    if (dropped.count(file->writer) != 0) offered.insert(id);
  }
  for (FileId id : offered) {
    if (refs.count(id) == 0 && store.File(id) != nullptr) report.deleted.push_back(id);
  }
  for (FileId id : report.deleted) {
    const bool erased = store.DeleteFile(id);
    REPARTSIM_ASSERT(erased);
  }
  return report;
}

}  // namespace repartsim::model
