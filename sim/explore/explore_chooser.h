// ExploreChooser: the Chooser of one run of an exhaustive search. It answers the run's
// branching decisions from a prefix of alternative indices and every later one with
// alternative 0 (Choose: value 0; Chance: no), and records every decision it answered.
// The policy shapes the tree (all bounds are per path):
//   - a Choose with more than values_max options branches over values_max values evenly
//     spread over [0, n-1] (0 and n-1 included; values_max = 0 means all n);
//   - a Chance branches no/yes while its budget lasts: labels the policy calls crash points
//     spend crash_budget, all others fault_budget; a spent budget answers no without a branch;
//   - after depth_max branching decisions every later decision takes alternative 0.
// Decisions that do not branch still reach the inner bookkeeping (and the run's recorded
// choice list) with their real answer, so a counterexample replays with a ReplayChooser.
// The chance ratio is ignored: a possible fault is explored whatever its probability.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/chooser.h"

namespace repartsim::sim::explore {

struct DecisionPolicy {
  uint32_t values_max = 3;
  uint32_t crash_budget = 1;
  uint32_t fault_budget = 1;
  uint32_t depth_max = UINT32_MAX;
  // Budget subsumption (explorer.h): a state reached before with at most the crashes and
  // faults spent now ends the run, not only the same state with the same spending.
  bool subsumption = true;
  // True iff a Chance label is a crash point (default: every label not starting with "net.").
  std::function<bool(std::string_view)> is_crash_point;
};

// One branching decision of a run: `alternative` of `alternatives` (>= 2) was taken.
struct Branch {
  uint32_t alternatives = 2;
  uint32_t alternative = 0;
};

class ExploreChooser final : public Chooser {
 public:
  ExploreChooser(std::vector<uint32_t> prefix, const DecisionPolicy& policy)
      : prefix_(std::move(prefix)), policy_(policy) {}

  uint64_t draw_count() const override { return 0; }
  const ChoiceMismatch* mismatch() const override { return mismatch_ ? &*mismatch_ : nullptr; }

  // The branching decisions answered so far, in call order.
  const std::vector<Branch>& branches() const { return branches_; }
  // True iff every prefix entry has been consumed: the run is in unexplored territory.
  bool past_prefix() const { return branches_.size() >= prefix_.size(); }
  size_t prefix_size() const { return prefix_.size(); }
  // True iff a decision came after depth_max branches (it took alternative 0).
  bool depth_limited() const { return depth_limited_; }
  uint32_t crashes_used() const { return crashes_used_; }
  uint32_t faults_used() const { return faults_used_; }
  // Returns the value a Choose of `option_count` options takes for `alternative`.
  static uint32_t ValueOf(uint32_t alternative, uint32_t alternatives, uint32_t option_count);

 protected:
  uint32_t DoChoose(std::string_view label, uint32_t option_count) override;
  bool DoChance(std::string_view label, Ratio p) override;

 private:
  // Takes the next branching decision over `alternatives` (>= 2) options.
  uint32_t TakeBranch(std::string_view label, uint32_t alternatives);
  bool DepthLeft() {
    if (branches_.size() < policy_.depth_max) return true;
    depth_limited_ = true;
    return false;
  }

  std::vector<uint32_t> prefix_;
  const DecisionPolicy& policy_;
  std::vector<Branch> branches_;
  uint32_t crashes_used_ = 0;
  uint32_t faults_used_ = 0;
  bool depth_limited_ = false;
  std::optional<ChoiceMismatch> mismatch_;
};

}  // namespace repartsim::sim::explore
