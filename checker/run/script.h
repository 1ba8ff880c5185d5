// The scripted part of a scenario run: CREATE TABLE at t=0, the setup statements, the
// scripted steps (at a virtual time, or armed to fire once a named procedure state has
// passed) and the marker that ends the safety phase at limits.time_ms_max.
#pragma once

#include "checker/scenario/scenario.h"
#include "model/cluster/cluster.h"

namespace repartsim::run {

void ScheduleScript(const scenario::Scenario& scenario, model::Cluster& cluster);

}  // namespace repartsim::run
