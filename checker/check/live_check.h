// INV-LIVE, checked when the liveness phase's budget is spent: after faults healed at
// `heal_step`, every procedure must have ended (Done, or Failed with its rollback complete),
// no region may still be staging, and every probe write (one row per value class the
// workload uses) must be accepted. Each pending item is its own Violation saying what is
// still pending: the procedure, its state and what it waits for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/check/check_at.h"
#include "checker/check/violation.h"
#include "model/meta/ids.h"
#include "model/partition/schema.h"

namespace repartsim::check {

enum class ProcedureOutcome { kRunning, kDone, kFailed };

struct ProcedureStatus {
  std::string procedure_id;
  std::string kind;  // e.g. "repartition", "repartition-group"
  ProcedureOutcome outcome = ProcedureOutcome::kRunning;
  bool rollback_complete = false;  // meaningful for kFailed
  std::string state;               // current state name, e.g. "EnterStagingRegion"
  std::string waiting_for;         // e.g. "region 4398046511105(1024, 1) to enter staging"
};

struct WriteProbe {
  model::Row row;
  model::RegionId region;  // where the frontend routed it
  bool accepted = false;
  std::string rejection;  // the reply when not accepted, e.g. "RegionNotFound"
};

struct LivenessState {
  uint64_t heal_step = 0;
  std::vector<ProcedureStatus> procedures;
  std::vector<model::RegionId> staging_regions;
  std::vector<WriteProbe> probes;
};

// Messages (E = at.step - heal_step, H = heal_step):
//   "procedure P (K) did not end within E steps after faults healed at step H: state S,
//    waiting for W"
//   "procedure P (K) failed but its rollback did not complete within E steps after faults
//    healed at step H: state S, waiting for W"
//   "region R is still staging E steps after faults healed at step H"
//   "row of region R is not writable E steps after faults healed at step H: its last write
//    attempt was rejected: Z" (R covers the row in the final route; Z names the region that
//    rejected it, which a stale route may have picked)
// (", waiting for W" is omitted when W is empty).
std::vector<Violation> CheckLiveness(const model::TableSchema& schema, const LivenessState& state,
                                     CheckAt at);

}  // namespace repartsim::check
