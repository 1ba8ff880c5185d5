// Grouping of a repartition into independent groups (subtask.rs create_subtasks): the
// connected components of the bipartite old->new overlap graph, found by BFS from each
// `from` index in ascending order; isolated expressions are dropped. transition_map[k] lists
// the targets of from_expr_indices[k]: LOCAL positions in to_expr_indices by default, or the
// real system's GLOBAL `to` indices when `global_transition_indices` is set (defect P1,
// docs/findings.md: with two or more groups those indices overrun a group's target list).
#pragma once

#include <cstddef>
#include <vector>

#include "model/partition/expr.h"

namespace repartsim::model {

struct RepartitionSubtask {
  std::vector<size_t> from_expr_indices;            // sorted, global
  std::vector<size_t> to_expr_indices;              // sorted, global
  std::vector<std::vector<size_t>> transition_map;  // per from_expr_indices[k]
};

struct SubtaskOptions {
  bool global_transition_indices = false;  // reproduce P1
  bool exact_overlap = false;
};

std::vector<RepartitionSubtask> CreateSubtasks(const std::vector<PartitionExpr>& from,
                                               const std::vector<PartitionExpr>& to,
                                               SubtaskOptions options = {});

}  // namespace repartsim::model
