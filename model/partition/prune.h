// Query pruning (region_pruner.rs / predicate_extractor.rs): a WHERE predicate -> candidate
// regions. The predicate becomes partition expressions over the rule's columns, collided
// jointly with the rule, and a region is a candidate iff one of its atoms overlaps a query
// atom. Falls back to ALL regions whenever unsure: no partition columns, an expression-less
// region, timestamp columns (unsupported literal type in the real system), or a collider
// error. Sound: a matching row's owner is always a candidate.
// kGreptime follows GreptimeDB's planner (prune.cc, GreptimeExtractor): the whole WHERE is
// one expression; an AND over partition columns only stays one expression; an AND mixing
// other columns keeps its partition-only conjuncts as separate expressions (their union);
// an OR mixing other columns, or anything the converter cannot express, leaves the table
// unpruned; an AND over an OR fails the collider. kExact (reference) drops what it cannot
// use conjunct by conjunct, expands the whole predicate to DNF (at most kPruneAtomsMax
// atoms) and uses the exact overlap.
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
