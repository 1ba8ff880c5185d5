// A partition rule (multi_dim.rs MultiDimPartitionRule): regions[i] owns exprs[i]. Routing:
// the row path returns the region of the FIRST matching expression, else region 0 (the
// default region); the bulk path evaluates every expression independently (filter-path
// semantics) and ORs unmatched rows into region 0. CheckRule() is the checkpoint checker of
// checker.rs (complete + disjoint), returning the real error text or nullopt when valid.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/partition/expr.h"
#include "model/partition/schema.h"

namespace repartsim::model {

inline constexpr uint32_t kDefaultRegion = 0;

struct PartitionRule {
  std::vector<std::string> columns;
  std::vector<uint32_t> regions;
  std::vector<PartitionExpr> exprs;
};

// kGreptime reproduces checker.rs exactly (dense order; atoms of one expression may
// "overlap" each other). kExact knows discrete domains (integer/bool/timestamp columns:
// `x <= 1` / `x >= 2` is complete) and counts coverage per expression, not per atom.
enum class CheckMode { kGreptime, kExact };

uint32_t FindRegionRowPath(const PartitionRule& rule, const TableSchema& schema, const Row& row);
// Sorted, deduplicated region numbers that receive the row on the bulk path. Exactly one
// region when the rule is disjoint; several when expressions overlap.
std::vector<uint32_t> RegionsBulkPath(const PartitionRule& rule, const TableSchema& schema,
                                      const Row& row);

// nullopt when the rule is valid, else the real message, e.g.
// "Checkpoint `a=10` is not covered", "Checkpoint `10<a<20` is overlapped",
// "Duplicate expr: PartitionExpr { ... }", or a collider error for non-DNF shapes.
std::optional<std::string> CheckRule(const PartitionRule& rule, const TableSchema& schema,
                                     CheckMode mode);

}  // namespace repartsim::model
