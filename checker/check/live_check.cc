#include "checker/check/live_check.h"

#include "checker/check/row_text.h"

namespace repartsim::check {

namespace {

Violation Live(CheckAt at, std::string message) {
  Violation v;
  v.invariant = Invariant::kLive;
  v.step = at.step;
  v.time_ms = at.time_ms;
  v.message = std::move(message);
  return v;
}

}  // namespace

std::vector<Violation> CheckLiveness(const model::TableSchema& schema, const LivenessState& state,
                                     CheckAt at) {
  REPARTSIM_ASSERT(at.step >= state.heal_step);
  std::string since = std::to_string(at.step - state.heal_step) +
                      " steps after faults healed at step " + std::to_string(state.heal_step);
  std::vector<Violation> out;
  for (const ProcedureStatus& p : state.procedures) {
    if (p.outcome == ProcedureOutcome::kDone) continue;
    if (p.outcome == ProcedureOutcome::kFailed && p.rollback_complete) continue;
    std::string head = "procedure " + p.procedure_id + " (" + p.kind + ") ";
    head += p.outcome == ProcedureOutcome::kRunning
                ? "did not end within "
                : "failed but its rollback did not complete within ";
    std::string message = head + since + ": state " + p.state;
    if (!p.waiting_for.empty()) message += ", waiting for " + p.waiting_for;
    out.push_back(Live(at, std::move(message)));
  }
  for (model::RegionId region : state.staging_regions) {
    Violation v = Live(at, "region " + region.ToString() + " is still staging " + since);
    v.regions = {region.ToString()};
    out.push_back(std::move(v));
  }
  for (const WriteProbe& probe : state.probes) {
    if (probe.accepted) continue;
    Violation v = Live(at, "row of region " + probe.region.ToString() + " is not writable " +
                               since + ": its last write attempt was rejected: " + probe.rejection);
    v.regions = {probe.region.ToString()};
    v.rows = {RenderRow(schema, probe.row)};
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace repartsim::check
