// The stories of a failed run: its violations grouped by the cause that explains them, each
// told the way a person debugging the run needs it (docs/trace.md, "Stories"). A story's
// first line names the anomaly and its cause: the stale route a frontend planned with and why
// it was stale (the invalidations it ignored or never received), the event that lost
// acknowledged rows and the procedure state it ran in, the region that accepted rows outside
// its range, the writes a region kept refusing. The lines under it name the operations with
// their steps and nodes, the route versions each actor held, the procedure states and the
// faults that fired before the first violation of the story.
//
// Everything is read from the run's trace lines (a run keeps them for its report) and the
// violations' own records, so a story never guesses from equal values: an operation is found
// by its id, a node by its id, a route by its version.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/check/violation.h"

namespace repartsim::run {

struct Story {
  std::string cause;                 // the first line
  std::vector<std::string> details;  // the lines under it
  std::vector<size_t> violations;    // indices into the run's violations, in report order
  std::string invariants;            // "INV-NOOMIT x11, INV-LIVE x1", in report order
};

// What the stories need besides the trace: the name of each node id ("fe2" for node 5), and
// the table's route at the end of the run.
struct StoryContext {
  std::vector<std::string> node_names;
  uint64_t final_route_version = 0;
  size_t final_region_count = 0;
};

// One story per cause, in the order of each story's first violation (the decisive one
// first). Every violation belongs to exactly one story.
std::vector<Story> BuildStories(const std::vector<check::Violation>& violations,
                                const std::vector<std::string>& trace, const StoryContext& ctx);

}  // namespace repartsim::run
