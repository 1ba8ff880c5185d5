#include "checker/run/script.h"

namespace repartsim::run {

void ScheduleScript(const scenario::Scenario& s, model::Cluster& cluster) {
  cluster.Schedule(sim::AtMs(0), cluster.PlanCreateTable(s.table_id(), s.table.schema, s.table.rule,
                                                         s.placement));
  // Setup and scripted statements come from the client that created the table: they wait for
  // its CREATE TABLE to end (Cluster::ScheduleScriptOp).
  for (const scenario::ScriptedStep& step : s.setup) {
    cluster.ScheduleScriptOp(sim::AtMs(step.at_ms), step.op);
  }
  for (const scenario::ScriptedStep& step : s.steps) {
    if (step.after_state.empty()) {
      cluster.ScheduleScriptOp(sim::AtMs(step.at_ms), step.op);
    } else {
      cluster.ScheduleAfterState(step.after_state, step.occurrence, sim::Ms(step.at_ms), step.op);
    }
  }
  // Marks the end of the safety phase in the trace; the runner heals the rest itself.
  cluster.Schedule(sim::AtMs(s.limits.time_ms_max), model::HealOp{true});
}

}  // namespace repartsim::run
