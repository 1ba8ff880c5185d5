// StagingInfo: the directive a region enters staging with (mito StagingPartitionDirective),
// part of the EnterStaging request the metasrv sends and of the datanode's staging state:
// reject every write, or fence writes with a new partition expression and its version.
#pragma once

#include <cstdint>
#include <optional>

#include "model/partition/expr.h"
#include "sim/fingerprint.h"

namespace repartsim::model {

enum class StagingDirective : uint8_t { kUpdatePartitionExpr, kRejectAllWrites };

struct StagingInfo {
  StagingDirective directive = StagingDirective::kRejectAllWrites;
  std::optional<PartitionExpr> partition_expr;  // kUpdatePartitionExpr only
  uint64_t version = 0;                         // ExprVersion of it; 0 for kRejectAllWrites

  static StagingInfo UpdatePartitionExpr(PartitionExpr expr);
  static StagingInfo RejectAllWrites();
  void Hash(sim::Hasher& h) const;
  friend bool operator==(const StagingInfo&, const StagingInfo&) = default;
};

}  // namespace repartsim::model
