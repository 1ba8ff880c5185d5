// Liveness write probes, driven by the runner once faults healed and the cluster is quiescent:
// one INSERT per probe row (check::ChooseProbeRows over the rows of acknowledged writes:
// values the system once accepted must be writable again; capped at kProbesMax), probe i
// through frontend i mod F as an ordinary InsertOp, so probes land in History and the oracle
// like any write (INV-ACK checks them too). An attempt that ends rejected or unknown is
// retried 2 s later (a client retrying after a stale-route error), kAttemptsMax attempts in
// all, so the attempts span more than one heartbeat interval (3 s): a region that waits for
// its next lease (a new region awaiting commit after ExitStaging) gets it within them; each attempt
// carries a fresh time index, so a retry never duplicates a maybe-applied attempt. Every write
// issued after Start() is a probe (the workload has ended; asserted).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/scenario/scenario.h"
#include "model/cluster/cluster.h"
#include "sim/fingerprint.h"

namespace repartsim::run {

struct ProbeResult {
  model::Row row;  // the last attempt's row
  uint32_t frontend_index = 0;
  uint32_t attempts = 0;  // attempts issued
  bool finished = false;  // acknowledged, or the last attempt ended unacknowledged
  bool acked = false;
  std::string error;  // the last unacknowledged attempt's error text
};

class LivenessProbes {
 public:
  static constexpr size_t kProbesMax = 64;
  static constexpr uint32_t kAttemptsMax = 3;
  static constexpr int64_t kRetryDelayMs = 2000;

  // Chooses the probe rows from the History's writes and the current route and schedules the
  // first attempt of each at `now`. Returns false (nothing scheduled) when the table has no
  // route or no row was ever written.
  bool Start(const scenario::Scenario& s, model::Cluster& cluster, sim::SimTime now);
  // After every step once started: notes attempts that ended, schedules retries.
  void AfterStep(model::Cluster& cluster, sim::SimTime now);

  bool started() const { return first_write_id_ != 0; }
  // True iff every probe finished (acknowledged or out of attempts).
  bool done() const { return unfinished_ == 0; }
  const std::vector<ProbeResult>& results() const { return probes_; }
  // Writes with id >= this are probe attempts (0 when never started).
  uint64_t first_write_id() const { return first_write_id_; }
  uint64_t attempt_count() const { return attempt_probe_.size(); }
  // Every field that decides the probes' next moves and results (explore's liveness key).
  void Hash(sim::Hasher& h) const;

 private:
  void Issue(size_t probe, model::Cluster& cluster, sim::SimTime at);

  const scenario::Scenario* s_ = nullptr;
  std::vector<ProbeResult> probes_;
  std::vector<uint64_t> in_flight_;    // per probe: the attempt's write id, 0 if none yet
  std::vector<size_t> attempt_probe_;  // per attempt (time index - base_): its probe
  int64_t base_ = 0;                   // the first attempt's time index
  uint64_t first_write_id_ = 0;
  uint64_t next_unseen_ = 0;  // the next write id to map to its attempt
  size_t unfinished_ = 0;
};

}  // namespace repartsim::run
