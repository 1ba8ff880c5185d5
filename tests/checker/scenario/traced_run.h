// Shared by the scenario tests that look at a run's trace: one run of a loaded scenario with
// its trace kept, and the number of trace lines that contain a text.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"

namespace repartsim::scenario::testing {

// Runs seed 0 of `loaded` (a LoadScenarioFile or ParseScenario result) under `profile`, with
// the rule overrides `rules` applied after the scenario's.
inline run::RunReport RunTraced(const sim::Result<Scenario>& loaded, const std::string& profile,
                                std::vector<std::pair<std::string, bool>> rules = {}) {
  EXPECT_TRUE(loaded.ok()) << loaded.error().Format();
  run::RunConfig config;
  config.seed = 0;
  config.profile = profile;
  config.keep_trace = true;
  config.rules = std::move(rules);
  auto report = run::RunScenario(loaded.value(), config);
  EXPECT_TRUE(report.ok());
  return report.value();
}

// The trace lines of `r` that contain `needle`.
inline size_t CountLines(const run::RunReport& r, const std::string& needle) {
  return static_cast<size_t>(std::count_if(
      r.trace_lines.begin(), r.trace_lines.end(),
      [&](const std::string& line) { return line.find(needle) != std::string::npos; }));
}

}  // namespace repartsim::scenario::testing
