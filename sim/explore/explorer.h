// Explorer: bounded exhaustive search over the decision tree of a deterministic run, by
// stateless replay. Each run starts from the initial state and takes its branching decisions
// from a prefix (ExploreChooser); the run reports each state it reaches to Visit(), which
// dedupes states by a canonical key (the model's fingerprint plus the budgets the path has
// spent) and cuts the run at a state already reached by an earlier run: that state's
// continuations were or will be explored from there. States are counted only past the
// prefix (the replayed part was counted by the run that first reached it).
// Budget subsumption (DecisionPolicy::subsumption, on by default): the key given to Visit()
// leaves out the budgets; a state is cut when the same key was reached before with no more
// crashes and no more faults spent, since every continuation open to the later visit (its
// remaining budgets are no larger) is open to the earlier one. Off, the budgets are part of
// the key and only an exact repeat is cut. Breadth-first keeps its shortest counterexample:
// the earlier visit's path had no more non-default decisions than the later one's.
// Orders:
//   depth-first   the odometer: the next run changes the deepest decision with an untried
//                 alternative (no memory beyond the current path);
//   breadth-first runs in order of their number of non-default decisions (faults, crashes,
//                 non-zero values), so the first counterexample found has the fewest; the
//                 queue holds one prefix per untried alternative (the frontier).
// The search stops at the first failing run, when states_max new states were counted, when
// what it holds (the bfs queue, the visited and subsumption tables, the current path's
// decisions, estimated) passes memory_max ("memory_max": breadth-first on a large tree grew to
// gigabytes in seconds), when `progress` returns false, or when the tree is exhausted (within
// the policy's bounds). The bounds hold inside a run too: a run that calls Continue at each
// step is cut when one is passed, and the children breadth-first queues after a run are
// counted as they are queued (one path of a 256-region scenario ran 44 s under a 1 s bound,
// and a long path's children alone can be gigabytes).
// No clock here: time bounds belong to the caller's `progress`.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>  // lint: lookup-only (the subsumption table)
#include <unordered_set>  // lint: lookup-only (the visited set)
#include <vector>

#include "sim/explore/explore_chooser.h"

namespace repartsim::sim::explore {

enum class Order : uint8_t { kDepthFirst, kBreadthFirst };
const char* OrderName(Order order);  // "dfs", "bfs"

// What one run tells the search.
struct RunVerdict {
  bool failed = false;  // the run violated something: the search stops with its prefix
};

struct ExploreStats {
  uint64_t runs = 0;
  uint64_t runs_cut = 0;       // ended at an already visited state
  uint64_t states = 0;         // states reached past the prefix (visits)
  uint64_t unique = 0;         // distinct state keys (with the budgets spent to reach them)
  uint64_t subsumed = 0;       // of the cuts, the states reached before with fewer budgets spent
  uint64_t depth_max = 0;      // most branching decisions on one path
  uint64_t frontier = 0;       // untried alternatives known (dfs: on the current path)
  bool depth_limited = false;  // some path reached depth_max with decisions left
  bool exhausted = false;      // every path within the bounds was explored
  bool failed = false;
  std::vector<uint32_t> failing_prefix;  // branch alternatives of the failing run
  uint64_t held_bytes = 0;               // estimated memory of the queue and the tables
  std::string stop_reason;               // "exhausted", "violation", "states_max",
                                         // "memory_max", "stopped", "nondeterminism: <message>"
};

// The default bound on what a search holds: 1 GiB.
inline constexpr uint64_t kExploreMemoryMaxDefault = uint64_t{1} << 30;

class Explorer {
 public:
  using RunFunction = std::function<RunVerdict(ExploreChooser&)>;
  // Called after every run; returning false stops the search ("stopped").
  using ProgressFunction = std::function<bool(const ExploreStats&)>;

  Explorer(DecisionPolicy policy, Order order, uint64_t states_max,
           uint64_t memory_max = kExploreMemoryMaxDefault)
      : policy_(std::move(policy)),
        order_(order),
        states_max_(states_max),
        memory_max_(memory_max) {}

  // To be called by a run for each state it reaches, with the model's canonical key (which
  // must not include the budgets spent: the explorer adds them). With `budgets_matter`
  // false (no later decision can spend a budget, e.g. every fault has stopped) the state
  // counts as reached with nothing spent. Returns false iff the run must end here (a
  // visited or subsumed state, or states_max reached).
  bool Visit(uint64_t key, const ExploreChooser& chooser, bool budgets_matter = true);
  // To be called by a run at each of its steps, in every phase (Visit is not called in a
  // replayed prefix or, usually, the liveness phase). Every kStepsPerCheck calls it checks
  // memory_max and asks Run's `progress`. Returns false iff the search must stop: the run must
  // end here (it is cut, and the search stops with "memory_max" or "stopped").
  bool Continue(const ExploreChooser& chooser);
  static constexpr uint32_t kStepsPerCheck = 16;

  ExploreStats Run(const RunFunction& run, const ProgressFunction& progress);
  const DecisionPolicy& policy() const { return policy_; }

 private:
  // Accounts for one finished run; returns false iff the search must stop.
  bool AfterRun(const ExploreChooser& chooser, const RunVerdict& verdict, bool cut);
  // The end of Run: forgets its progress function and returns the totals.
  ExploreStats Stopped();
  // The estimate of what the search holds: the queue, the tables and `path_decisions`.
  uint64_t HeldBytes(uint64_t path_decisions) const;

  DecisionPolicy policy_;
  Order order_;
  uint64_t states_max_;
  uint64_t memory_max_;
  ExploreStats stats_;
  bool cut_ = false;  // the current run was cut by Visit
  bool states_max_reached_ = false;
  const ProgressFunction* progress_ = nullptr;  // Run's, while it runs
  uint64_t queue_bytes_ = 0;                    // bfs: the prefixes still to run
  uint32_t steps_unchecked_ = 0;                // Continue calls since the last check
  std::string stop_pending_;                    // set by Continue: the current run is cut
  std::unordered_set<uint64_t> visited_;        // lint: lookup-only
  // Subsumption: per key, the (crashes, faults) spent at each visit that was not subsumed.
  using Spent = std::vector<std::pair<uint32_t, uint32_t>>;
  std::unordered_map<uint64_t, Spent> spent_;  // lint: lookup-only
};

}  // namespace repartsim::sim::explore
