#include "sim/explore/explorer.h"

#include <algorithm>

#include "sim/fingerprint.h"

namespace repartsim::sim::explore {

const char* OrderName(Order order) { return order == Order::kDepthFirst ? "dfs" : "bfs"; }

namespace {

// Per distinct state, a table entry: a hash node and its (crashes, faults) list, or a set node.
constexpr uint64_t kStateBytes = 96;
constexpr uint64_t kPrefixBytes = sizeof(std::vector<uint32_t>) + 16;

}  // namespace

uint64_t Explorer::HeldBytes(uint64_t path_decisions) const {
  return queue_bytes_ + stats_.unique * kStateBytes + path_decisions * sizeof(Branch);
}

bool Explorer::Continue(const ExploreChooser& chooser) {
  if (!stop_pending_.empty()) return false;
  if (++steps_unchecked_ < kStepsPerCheck) return true;
  steps_unchecked_ = 0;
  stats_.held_bytes = HeldBytes(chooser.branches().size());
  if (stats_.held_bytes > memory_max_) {
    stop_pending_ = "memory_max";
  } else if (progress_ != nullptr && !(*progress_)(stats_)) {
    stop_pending_ = "stopped";
  }
  if (stop_pending_.empty()) return true;
  cut_ = true;
  return false;
}

bool Explorer::Visit(uint64_t key, const ExploreChooser& chooser, bool budgets_matter) {
  if (!chooser.past_prefix()) return true;  // replaying a path an earlier run counted
  if (states_max_reached_ || !stop_pending_.empty()) {
    cut_ = true;
    return false;
  }
  ++stats_.states;
  const uint32_t crashes = budgets_matter ? chooser.crashes_used() : 0;
  const uint32_t faults = budgets_matter ? chooser.faults_used() : 0;
  if (policy_.subsumption) {
    std::vector<std::pair<uint32_t, uint32_t>>& spent = spent_[key];
    for (const auto& [c, f] : spent) {
      if (c <= crashes && f <= faults) {
        stats_.subsumed += c != crashes || f != faults;
        cut_ = true;
        return false;
      }
    }
    spent.emplace_back(crashes, faults);
    ++stats_.unique;
  } else {
    const uint64_t full = Hasher().Add(key).Add(crashes).Add(faults).Finish();
    if (!visited_.insert(full).second) {
      cut_ = true;
      return false;
    }
    stats_.unique = visited_.size();
  }
  if (stats_.states >= states_max_) states_max_reached_ = true;
  return true;
}

bool Explorer::AfterRun(const ExploreChooser& chooser, const RunVerdict& verdict, bool cut) {
  ++stats_.runs;
  stats_.runs_cut += cut;
  const std::vector<Branch>& branches = chooser.branches();
  stats_.depth_max = std::max<uint64_t>(stats_.depth_max, branches.size());
  stats_.depth_limited = stats_.depth_limited || chooser.depth_limited();
  if (const ChoiceMismatch* m = chooser.mismatch()) {
    stats_.stop_reason = "nondeterminism: " + m->message;
    return false;
  }
  if (!stop_pending_.empty()) {  // cut by Continue: not judged
    stats_.stop_reason = stop_pending_;
    return false;
  }
  if (verdict.failed) {
    stats_.failed = true;
    for (const Branch& b : branches) stats_.failing_prefix.push_back(b.alternative);
    stats_.stop_reason = "violation";
    return false;
  }
  if (states_max_reached_) {
    stats_.stop_reason = "states_max";
    return false;
  }
  return true;
}

ExploreStats Explorer::Run(const RunFunction& run, const ProgressFunction& progress) {
  stats_ = ExploreStats();
  visited_.clear();
  spent_.clear();
  states_max_reached_ = false;
  progress_ = &progress;
  queue_bytes_ = 0;
  steps_unchecked_ = 0;
  stop_pending_.clear();
  std::deque<std::vector<uint32_t>> queue;  // bfs: prefixes still to run
  std::optional<std::vector<uint32_t>> next = std::vector<uint32_t>{};
  while (next) {
    ExploreChooser chooser(std::move(*next), policy_);
    next.reset();
    cut_ = false;
    const RunVerdict verdict = run(chooser);
    if (!AfterRun(chooser, verdict, cut_)) return Stopped();
    const std::vector<Branch>& branches = chooser.branches();
    if (order_ == Order::kDepthFirst) {
      // The odometer: the deepest decision with an untried alternative, incremented.
      stats_.frontier = 0;
      for (size_t i = branches.size(); i-- > 0;) {
        stats_.frontier += branches[i].alternatives - 1 - branches[i].alternative;
        if (!next && branches[i].alternative + 1 < branches[i].alternatives) {
          std::vector<uint32_t> prefix;
          prefix.reserve(i + 1);
          for (size_t j = 0; j < i; ++j) prefix.push_back(branches[j].alternative);
          prefix.push_back(branches[i].alternative + 1);
          next = std::move(prefix);
        }
      }
      if (next) --stats_.frontier;
    } else {
      // Children: every non-default alternative of every decision past the prefix.
      for (size_t i = chooser.prefix_size(); i < branches.size(); ++i) {
        for (uint32_t a = 1; a < branches[i].alternatives; ++a) {
          std::vector<uint32_t> prefix;
          prefix.reserve(i + 1);
          for (size_t j = 0; j < i; ++j) prefix.push_back(branches[j].alternative);
          prefix.push_back(a);
          queue_bytes_ += kPrefixBytes + prefix.size() * sizeof(uint32_t);
          queue.push_back(std::move(prefix));
          // A long path has many children, each as long as its decision's depth: the queue
          // may pass the bound before it is complete.
          if (HeldBytes(0) > memory_max_) {
            stats_.frontier = queue.size();
            stats_.held_bytes = HeldBytes(0);
            stats_.stop_reason = "memory_max";
            return Stopped();
          }
        }
      }
      if (!queue.empty()) {
        next = std::move(queue.front());
        queue.pop_front();
        queue_bytes_ -= kPrefixBytes + next->size() * sizeof(uint32_t);
      }
      stats_.frontier = queue.size();
    }
    stats_.held_bytes = HeldBytes(0);
    if (stats_.held_bytes > memory_max_) {
      stats_.stop_reason = "memory_max";
      return Stopped();
    }
    if (!progress(stats_)) {
      stats_.stop_reason = "stopped";
      return Stopped();
    }
  }
  stats_.exhausted = true;
  stats_.stop_reason = "exhausted";
  return Stopped();
}

ExploreStats Explorer::Stopped() {
  progress_ = nullptr;
  return stats_;
}

}  // namespace repartsim::sim::explore
