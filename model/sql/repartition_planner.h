// Validation and planning of an ALTER TABLE repartition statement, following the frontend
// pipeline of ddl.rs::repartition_table (docs/protocol.md section 4) with its error texts, then the
// metasrv plan construction (docs/protocol.md section 10.2): groups = connected components of the
// overlap graph; per group the first min(M, N) source regions are reused in order, extra targets
// get fresh region numbers (max_region_number + 1, ...; never reused), extra sources are
// deallocated. With `global_transition_indices` (the greptime profile, defect P1) a group's
// transition map holds global target indices and the plan records the Dispatch panic that
// indexing the group's own target list would cause.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/partition/subtask.h"
#include "model/sql/statement.h"

namespace repartsim::model::sql {

struct TableState {
  TableSchema schema;
  PartitionRule rule;
  uint32_t max_region_number = 0;  // only grows
  bool logical = false;
  bool gc_enabled = true;

  static TableState FromCreate(const CreateTable& create);
};

struct PlanOptions {
  CheckMode check_mode = CheckMode::kGreptime;
  bool global_transition_indices = true;  // P1 as in the real system
  bool exact_overlap = false;
  // false: the resulting rule is not checked (a client that calls the metasrv's DDL API
  // directly, with no frontend validation in between).
  bool check_rule = true;

  static PlanOptions Greptime() { return {}; }
  static PlanOptions Reference() { return {CheckMode::kExact, false, true}; }
};

struct PlanGroup {
  std::vector<PartitionExpr> from;
  std::vector<PartitionExpr> to;
  std::vector<uint32_t> source_regions;
  std::vector<uint32_t> target_regions;       // reused sources first, then allocated
  std::vector<uint32_t> allocated_regions;    // new region numbers
  std::vector<uint32_t> deallocated_regions;  // merged-away sources
  std::vector<std::vector<size_t>> transition_map;
  std::optional<std::string> dispatch_panic;  // P1: an index past target_regions
};

struct RepartitionPlan {
  std::vector<std::string> target_columns;
  std::vector<PartitionExpr> from;  // typed sources (empty for an unpartitioned table)
  std::vector<PartitionExpr> to;    // typed targets (after merge simplification)
  std::vector<PlanGroup> groups;
  TableState result;  // the table after the procedure succeeds
  bool wait = true;
  int64_t timeout_ms = 60000;
};

// GreptimeDB's full name of a table of the model's catalog and schema, for messages:
// "t" -> "greptime.public.t" (a name outside them is kept as written).
std::string FullTableName(const std::string& table);

// Errors are located at the offending expression or at `statement_location`.
sim::Result<RepartitionPlan> PlanRepartition(const TableState& table, const AlterRepartition& alter,
                                             const sim::SourceLocation& statement_location,
                                             const PlanOptions& options);

}  // namespace repartsim::model::sql
