// The random workload of a scenario: writers and readers per frontend issue INSERTs and
// SELECTs at jittered intervals (mean = the configured interval) between start_ms and end_ms.
// Everything is drawn from the Prng passed in (the runner forks it from the run's seed in a
// fixed order), so one seed gives one workload. Rows draw each column from its domain
// (Workload::columns) or a type default: integers and timestamps in [0, 99], floats the
// same as whole numbers, strings "s0".."s7", booleans either; NULL only when asked for.
// Point and range queries filter on the first partition column (else the first column).
#pragma once

#include "checker/scenario/scenario.h"
#include "model/cluster/cluster.h"
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

// One stream of the workload: one writer or one reader of one frontend, with the PRNG
// position and time of its next statement. A value: copying it copies its future.
struct WorkloadStream {
  bool writer = true;
  uint32_t frontend = 0;
  sim::Prng prng{0};
  int64_t next_at_ms = 0;
};

// Draws the whole workload, in the order the runner schedules it (time, then draw order).
std::vector<WorkloadOp> DrawWorkload(const scenario::Scenario& scenario, sim::Prng& prng);

// Feeds the workload to a cluster one statement per stream: the queue holds each stream's next
// statement only, and a stream's next one is drawn when the one before it runs, so a run holds
// what is due next and not the whole workload. The statements, their times and their order in
// the op queue are those of DrawWorkload scheduled up front: each stream draws from the PRNG
// position its statements had in the whole draw, and schedules with an op-queue seq reserved
// when the feeder was made (Cluster::ReserveOpSeqs), so ops due at the same time keep the order
// they had. `prng` advances as drawing the whole workload would advance it.
class WorkloadFeeder {
 public:
  // Schedules each stream's first statement. `scenario` must outlive the feeder.
  WorkloadFeeder(const scenario::Scenario& scenario, sim::Prng& prng, model::Cluster& cluster);

  // Call after every step: when the step ran a stream's statement, schedules that stream's
  // next one, if it has one.
  void AfterStep(model::Cluster& cluster);

  // The statements of the whole workload.
  const WorkloadCounts& counts() const { return counts_; }

 private:
  void ScheduleNext(size_t stream, model::Cluster& cluster);

  const scenario::Scenario& scenario_;
  WorkloadCounts counts_;  // before streams_: PlanStreams sets it
  std::vector<WorkloadStream> streams_;
  uint64_t first_seq_ = 0;  // stream i schedules with seq first_seq_ + i
  uint64_t ops_taken_ = 0;  // Cluster::ops_taken() when AfterStep last looked
};

// One random row of the scenario's table (exposed for tests).
model::Row RandomRow(const scenario::Scenario& scenario, sim::Prng& prng);

}  // namespace repartsim::run
