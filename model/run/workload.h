// The random workload of a scenario: writers and readers per frontend issue INSERTs and
// SELECTs at jittered intervals (mean = the configured interval) between start_ms and end_ms.
// Everything is drawn from the Prng passed in (the runner forks it from the run's seed in a
// fixed order), so one seed gives one workload. Rows draw each column from its domain
// (Workload::columns) or a type default: integers and timestamps in [0, 99], floats the
// same as whole numbers, strings "s0".."s7", booleans either; NULL only when asked for.
// Point and range queries filter on the first partition column (else the first column).
#pragma once

#include "model/cluster/cluster.h"
#include "model/scenario/scenario.h"
#include "sim/prng.h"

namespace repartsim::run {

struct WorkloadCounts {
  uint64_t inserts = 0;
  uint64_t queries = 0;
};

// One drawn workload statement: an InsertOp or a QueryOp due at `at_ms`.
struct WorkloadOp {
  int64_t at_ms = 0;
  model::ClientStatement statement;
};

// Draws the whole workload, in the order ScheduleWorkload schedules it.
std::vector<WorkloadOp> DrawWorkload(const scenario::Scenario& scenario, sim::Prng& prng);

// Schedules the whole workload on `cluster` up front (DrawWorkload, then Schedule each).
WorkloadCounts ScheduleWorkload(const scenario::Scenario& scenario, sim::Prng& prng,
                                model::Cluster& cluster);

// One random row of the scenario's table (exposed for tests).
model::Row RandomRow(const scenario::Scenario& scenario, sim::Prng& prng);

}  // namespace repartsim::run
