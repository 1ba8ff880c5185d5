#include "sim/simulation.h"

namespace repartsim::sim {

const char* ToString(RunOutcome outcome) {
  switch (outcome) {
    case RunOutcome::kQuiescent:
      return "quiescent";
    case RunOutcome::kStepsMax:
      return "steps_max";
    case RunOutcome::kTimeMax:
      return "time_max";
    case RunOutcome::kStopped:
      return "stopped";
    case RunOutcome::kNondeterminism:
      return "nondeterminism";
  }
  REPARTSIM_UNREACHABLE();
}

size_t EarliestEvent(const std::vector<EnabledEvent>& events) {
  REPARTSIM_ASSERT(!events.empty());
  size_t best = 0;
  for (size_t i = 1; i < events.size(); ++i) {
    const EnabledEvent& e = events[i];
    const EnabledEvent& b = events[best];
    if (e.at < b.at || (e.at == b.at && e.seq < b.seq)) best = i;
  }
  return best;
}

}  // namespace repartsim::sim
