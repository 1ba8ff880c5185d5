#include "model/partition/subtask.h"

#include <algorithm>
#include <deque>

#include "model/partition/overlap.h"

namespace repartsim::model {

std::vector<RepartitionSubtask> CreateSubtasks(const std::vector<PartitionExpr>& from,
                                               const std::vector<PartitionExpr>& to,
                                               SubtaskOptions options) {
  std::vector<std::vector<size_t>> from_to = AssociateFromTo(from, to, options.exact_overlap);
  std::vector<std::vector<size_t>> to_from(to.size());
  for (size_t i = 0; i < from.size(); ++i) {
    for (size_t j : from_to[i]) to_from[j].push_back(i);
  }
  std::vector<bool> from_seen(from.size(), false);
  std::vector<bool> to_seen(to.size(), false);
  std::vector<RepartitionSubtask> out;
  for (size_t start = 0; start < from.size(); ++start) {
    if (from_seen[start] || from_to[start].empty()) continue;
    RepartitionSubtask task;
    std::deque<std::pair<bool, size_t>> queue{{true, start}};  // (is_from, index)
    from_seen[start] = true;
    while (!queue.empty()) {
      auto [is_from, index] = queue.front();
      queue.pop_front();
      if (is_from) {
        task.from_expr_indices.push_back(index);
        for (size_t j : from_to[index]) {
          if (!to_seen[j]) {
            to_seen[j] = true;
            queue.push_back({false, j});
          }
        }
      } else {
        task.to_expr_indices.push_back(index);
        for (size_t i : to_from[index]) {
          if (!from_seen[i]) {
            from_seen[i] = true;
            queue.push_back({true, i});
          }
        }
      }
    }
    std::sort(task.from_expr_indices.begin(), task.from_expr_indices.end());
    std::sort(task.to_expr_indices.begin(), task.to_expr_indices.end());
    for (size_t i : task.from_expr_indices) {
      std::vector<size_t> targets;
      for (size_t j : from_to[i]) {
        if (options.global_transition_indices) {
          targets.push_back(j);
        } else {
          auto it = std::lower_bound(task.to_expr_indices.begin(), task.to_expr_indices.end(), j);
          REPARTSIM_ASSERT(it != task.to_expr_indices.end() && *it == j);
          targets.push_back(static_cast<size_t>(it - task.to_expr_indices.begin()));
        }
      }
      task.transition_map.push_back(std::move(targets));
    }
    out.push_back(std::move(task));
  }
  return out;
}

}  // namespace repartsim::model
