// P1 UpdatePartitionMetadata (docs/protocol.md section 10.3): switches partition_key_indices from
// the original to the target columns (CAS on the raw table info), idempotently.
#include "model/repartition/repartition_procedure.h"
#include "model/repartition/route_access.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RepartitionProcedure::UpdatePartitionMetadata(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kUpdatePartitionMetadata);
  REPARTSIM_ASSERT(ctx_.metadata_update.has_value());
  REPARTSIM_ASSERT(!ctx_.plans.empty());
  DynamicTableLock table_lock(env, ctx_.table);
  REPARTSIM_ASSERT_MSG(table_lock.held(), "no dynamic holder spans steps beside a repartition");
  std::optional<InfoSnapshot> info = ReadInfoSnapshot(env.kv(), ctx_.table);
  if (!info.has_value()) return Step::Error("Table not found: " + ctx_.table.ToString());
  const PartitionMetadataUpdate& update = *ctx_.metadata_update;
  const std::vector<size_t>& current = info->info.partition_key_indices;
  if (current != update.target) {
    if (current != update.original) {
      return Step::Error("Invalid arguments: partition columns changed concurrently");
    }
    TableInfo next = info->info;
    next.partition_key_indices = update.target;
    MetaUpdateResult result = UpdateTableInfo(env.kv(), ctx_.table, info->raw, next);
    if (!result.ok) return Step::RetryLater(result.error);
    env.InvalidateTable(ctx_.table);
  }
  state_ = State::kAllocateRegionBuild;
  return Step::Next(/*persist=*/true);
}

}  // namespace repartsim::model
