// What a Cluster is built from, shared by the runner (runner.h) and the SQL console
// (checker/console): the protocol of a scenario under a run's profile and rule overrides, the
// cluster configuration under a seed's effective faults, and the crash plan of those faults.
#pragma once

#include "checker/run/runner.h"
#include "checker/scenario/scenario.h"
#include "model/cluster/cluster.h"
#include "model/protocol/protocol.h"
#include "sim/crash_points.h"
#include "sim/result.h"

namespace repartsim::run {

// The scenario's profile (or config.profile), its rules, then config.rules. Errors: an unknown
// profile or rule name.
sim::Result<model::Protocol> BuildProtocol(const scenario::Scenario& s, const RunConfig& config);
// The cluster of `s` (nodes, GC, checkpoints, region opening) under `faults`.
model::ClusterConfig ClusterConfigOf(const scenario::Scenario& s, const scenario::Faults& faults);
// Crash points: the default ratio, per-site overrides and the scripted crash of `f`.
sim::CrashPlan BuildCrashPlan(const scenario::Faults& f);

}  // namespace repartsim::run
