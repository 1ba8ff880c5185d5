// Runs the random-fault library (scenarios/random/*.yaml) under `reference` over the first
// `seeds_per_scenario` seeds of each scenario's range (all of it when 0) and returns one line
// per run that misses the scenario's reference expectation (no violation; a DDL the faults
// made the cluster reject is tolerated); shared by random_faults_test.cc (sample) and
// random_faults_slow_test.cc.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::scenario {

inline std::vector<std::string> RandomFaultScenarios() {
  std::vector<std::string> paths;
  const std::string root = std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/random";
  for (const auto& e : std::filesystem::directory_iterator(root)) {
    if (e.path().extension() == ".yaml") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

struct SweepResult {
  uint64_t runs = 0;
  std::vector<std::string> failures;
};

inline SweepResult SweepReference(uint64_t seeds_per_scenario) {
  SweepResult result;
  for (const std::string& path : RandomFaultScenarios()) {
    auto loaded = LoadScenarioFile(path);
    EXPECT_TRUE(loaded.ok()) << loaded.error().Format();
    if (!loaded.ok()) continue;
    const Scenario& s = loaded.value();
    const std::optional<Expectation> expect = s.ExpectationFor("reference");
    EXPECT_TRUE(expect.has_value());
    if (!expect) continue;
    uint64_t last = s.seed_last;
    if (seeds_per_scenario > 0) last = std::min(last, s.seed_first + seeds_per_scenario - 1);
    for (uint64_t seed = s.seed_first; seed <= last; ++seed) {
      run::RunConfig config;
      config.seed = seed;
      config.profile = "reference";
      auto report = run::RunScenario(s, config);
      EXPECT_TRUE(report.ok());
      ++result.runs;
      // No safety or liveness violation: only a tolerated DDL-REJECTED (a crash point made
      // CREATE TABLE fail before the ALTER) may show.
      if (report.ok() && !report.value().Meets(*expect)) {
        result.failures.push_back(path + " seed " + std::to_string(seed) + ": " +
                                  report.value().SummaryLine());
      }
    }
  }
  return result;
}

}  // namespace repartsim::scenario
