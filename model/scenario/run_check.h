// Adapter between a finished Cluster run and model/check (which works on plain data and
// knows nothing of the cluster): feeds the SQLite oracle from the History, checks every
// completed query (INV-NOOMIT/NODUP/NOPHANTOM, READ-ANOMALY when the query overlapped a DDL
// and the protocol does not fence reads), and at quiescence checks INV-ACK (a full scan of
// every routed region on its leader), INV-OWN (each region's exposed rows against its
// committed expression), INV-RULE (the published rule, exact checker) and INV-META. When the
// run did not become quiescent, INV-LIVE names what is still pending instead.
// Not yet covered here: the per-write INV-OWN acceptance check (needs a datanode hook) and
// the liveness write probes (LivenessState::probes stays empty).
#pragma once

#include <string>
#include <vector>

#include "model/check/violation.h"
#include "model/cluster/cluster.h"
#include "model/scenario/scenario.h"

namespace repartsim::scenario {

struct CheckInput {
  const Scenario* scenario = nullptr;
  const model::Cluster* cluster = nullptr;
  uint64_t end_step = 0;
  int64_t end_time_ms = 0;
  uint64_t heal_step = 0;
  bool quiescent = false;
  std::string not_quiescent_reason;  // e.g. "steps_max reached"
};

// All violations of the run, in check order: queries (by completion), then quiescence.
std::vector<check::Violation> CheckRun(const CheckInput& input);

}  // namespace repartsim::scenario
