// The data the repartition procedures persist (docs/protocol.md sections 10.2, 10.3, 10.4): source
// and target descriptors, the per-group plan entries built by RepartitionStart and completed by
// AllocateRegion::Build, and the partition-metadata update of an unpartitioned source or an
// ON COLUMNS change. JSON (nlohmann) codecs make them part of the procedure records; equal
// values encode to equal bytes. Expressions travel as their canonical text.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/meta/ids.h"
#include "model/meta/region_route.h"
#include "model/partition/expr.h"
#include "sim/fingerprint.h"
#include "sim/result.h"

namespace repartsim::model {

// A source region: Partitioned (its route expression) or Default (the single expression-less
// region of an unpartitioned table).
struct SourceDescriptor {
  RegionId region;
  std::optional<PartitionExpr> expr;  // nullopt: Default
  friend bool operator==(const SourceDescriptor&, const SourceDescriptor&) = default;
};

struct TargetDescriptor {
  RegionId region;
  PartitionExpr expr;
  friend bool operator==(const TargetDescriptor&, const TargetDescriptor&) = default;
};

struct PlanEntry {
  uint64_t group_id = 0;  // the real system draws a UUIDv4; a counter keeps runs replayable
  std::vector<SourceDescriptor> sources;
  std::vector<PartitionExpr> target_exprs;
  std::vector<std::vector<size_t>> transition_map;  // per source: target indices
  // Set by AllocateRegion::Build.
  std::vector<TargetDescriptor> targets;
  std::vector<RegionId> allocated;                  // new regions (extra targets)
  std::vector<RegionId> pending_deallocate;         // merged-away sources (extra sources)
  std::vector<RegionRoute> original_target_routes;  // reused targets, for rollback
  bool built = false;

  friend bool operator==(const PlanEntry&, const PlanEntry&) = default;
};

struct PartitionMetadataUpdate {
  std::vector<size_t> original;  // partition_key_indices before
  std::vector<size_t> target;    // after
  friend bool operator==(const PartitionMetadataUpdate&, const PartitionMetadataUpdate&) = default;
};

nlohmann::json ExprToJson(const std::optional<PartitionExpr>& expr);
sim::Result<std::optional<PartitionExpr>> ExprFromJson(const nlohmann::json& j);
nlohmann::json RoutesToJson(const std::vector<RegionRoute>& routes);
sim::Result<std::vector<RegionRoute>> RoutesFromJson(const nlohmann::json& j);
nlohmann::json PlanToJson(const PlanEntry& plan);
sim::Result<PlanEntry> PlanFromJson(const nlohmann::json& j);

void HashPlan(sim::Hasher& h, const PlanEntry& plan);

}  // namespace repartsim::model
