#include "model/node/staging_info.h"

#include <string_view>
#include <utility>

namespace repartsim::model {

StagingInfo StagingInfo::UpdatePartitionExpr(PartitionExpr expr) {
  StagingInfo info;
  info.directive = StagingDirective::kUpdatePartitionExpr;
  info.version = ExprVersion(&expr);
  info.partition_expr = std::move(expr);
  return info;
}

StagingInfo StagingInfo::RejectAllWrites() { return StagingInfo{}; }

void StagingInfo::Hash(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(directive));
  h.Add(partition_expr.has_value());
  if (partition_expr) h.Add(partition_expr->version());  // cached hash of CanonicalText
  h.Add(version);
}

}  // namespace repartsim::model
