// The determinism self-check of `run --check-determinism` and `sweep --check-determinism`:
// the same scenario, seed, profile and rules run twice in this process must give the same
// trace. On a mismatch the report names the first divergent event and shows the trace lines
// before it in both runs.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/scenario.h"

namespace repartsim::campaign {

// "first divergence at event #N:" then up to `context` earlier lines (shared by both runs),
// then the divergent line of each run and up to `context` later lines of each.
std::string DivergenceReport(const std::vector<std::string>& a, const std::vector<std::string>& b,
                             size_t context = 3);

struct DeterminismCheck {
  run::RunReport first;
  run::RunReport second;
  // Set iff the two runs differ (summary or trace): the text DivergenceReport gives, led by
  // the two summary lines.
  std::optional<std::string> mismatch;
};

// Runs `config` twice with the trace kept. `plant`, a test seam, may change the second run's
// config (e.g. an after_step that perturbs the cluster) to plant a nondeterminism.
DeterminismCheck CheckDeterminism(const scenario::Scenario& s, run::RunConfig config,
                                  const std::function<void(run::RunConfig&)>& plant = {});

}  // namespace repartsim::campaign
