// Query pruning (region_pruner.rs / predicate_extractor.rs): a WHERE predicate -> candidate
// regions. The predicate is converted to partition expressions over the rule's columns
// (IN -> OR of =, NOT IN -> AND of <>, BETWEEN -> >= AND <=, NOT BETWEEN -> < OR >; a
// conjunct on a non-partition column is dropped; an OR touching anything unconvertible is
// dropped whole), collided jointly with the rule, and a region is a candidate iff one of its
// atoms overlaps a query atom. Falls back to ALL regions whenever unsure: no partition
// columns, an expression-less region, timestamp columns (unsupported literal type in the
// real system), or a collider error. Sound: a matching row's owner is always a candidate.
// kGreptime treats the top-level conjuncts as separate query expressions (their union, as the
// real extractor's list) and lets an AND-over-OR fail the collider; kExact expands the whole
// predicate to DNF (at most kPruneAtomsMax atoms) and uses the exact overlap.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/partition/predicate.h"
#include "model/partition/rule.h"

namespace repartsim::model {

enum class PruneMode { kGreptime, kExact };

inline constexpr size_t kPruneAtomsMax = 256;

struct PruneResult {
  std::vector<uint32_t> regions;  // sorted candidate region numbers
  bool fell_back = false;         // true when every region was returned for lack of proof
  std::string reason;             // why it fell back ("" otherwise)
};

PruneResult PruneRegions(const PartitionRule& rule, const TableSchema& schema,
                         const Predicate& where, PruneMode mode);

}  // namespace repartsim::model
