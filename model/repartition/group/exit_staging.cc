// G6 UpdateMetadata::ExitStaging (docs/protocol.md section 10.4): clears Staging (only Staging,
// ClearLeaderStaging) on every target and source (merged-away sources keep IgnoreAllWrites; under
// Rule::kFenceMergedAwaySources they also stay Staging, so their lease never makes them writable
// again before they are dropped), records the src -> dst file-sharing map in __table_repart, and
// invalidates caches.
#include "model/meta/meta_codec.h"
#include "model/meta/meta_keys.h"
#include "model/protocol/rules.h"
#include "model/repartition/group/group_procedure.h"
#include "model/repartition/route_access.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RepartitionGroupProcedure::ExitStaging(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kExitStaging);
  REPARTSIM_ASSERT(ctx_.remapped);
  DynamicTableLock table_lock(env, ctx_.table);  // update_metadata.rs: around the whole state
  REPARTSIM_ASSERT_MSG(table_lock.held(), "no dynamic holder spans steps beside a repartition");
  std::optional<RouteSnapshot> snapshot = ReadRouteSnapshot(env, ctx_.table);
  if (!snapshot.has_value()) return Step::Error("Table not found: " + ctx_.table.ToString());
  std::vector<RegionRoute> routes = snapshot->route.region_routes;
  const bool fence = env.protocol().On(Rule::kFenceMergedAwaySources);
  auto clear = [&](RegionId region) {
    RegionRoute* r = FindRoute(routes, region);
    if (r == nullptr) return;
    if (fence && IsPendingDeallocate(region)) return;
    r->ClearLeaderStaging();  // a migration's Downgrading stays
  };
  for (const TargetDescriptor& target : ctx_.targets) clear(target.region);
  for (const SourceDescriptor& source : ctx_.sources) clear(source.region);
  MetaUpdateResult result =
      UpdateTableRoute(env.kv(), ctx_.table, snapshot->raw, snapshot->route, std::move(routes));
  if (!result.ok) return Step::RetryLater(result.error);

  // table_repart.update_mappings: CAS upsert of src -> dsts (self-mappings included).
  const std::string key = TableRepartKey(ctx_.table);
  std::optional<std::string> raw = env.kv().Get(key);
  TableRepart repart;
  if (raw.has_value()) {
    sim::Result<TableRepart> decoded = DecodeTableRepart(*raw);
    if (!decoded.ok()) return Step::Error("MetadataCorruption: " + decoded.error().message);
    repart = std::move(decoded).value();
  }
  for (const auto& [src, dsts] : ctx_.region_mapping) {
    repart.src_to_dst[src].insert(dsts.begin(), dsts.end());
  }
  REPARTSIM_ASSERT(repart.src_to_dst.size() >= ctx_.region_mapping.size());
  KvCasResult cas = env.kv().CompareAndPut(key, raw, EncodeTableRepart(repart));
  if (!cas.succeeded) return Step::Error("MetadataCorruption: table_repart changed concurrently");
  env.InvalidateTable(ctx_.table);
  state_ = State::kRepartitionEnd;
  return Step::Next(/*persist=*/false);
}

}  // namespace repartsim::model
