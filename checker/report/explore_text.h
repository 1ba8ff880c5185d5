// What `repartsim explore` reports of a search (checker/run/explore.h): the header, the
// counts (runs, runs cut, states, unique states, depth, steps), the speed, the result and the
// crash-point coverage, as text a person reads and as the JSON report; and the progress line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "checker/run/explore.h"
#include "checker/scenario/scenario.h"

namespace repartsim::report {

struct ExploreSummary {
  const scenario::Scenario* scenario = nullptr;  // REQUIRED
  std::string path;                              // as the user named it
  std::string profile;                           // effective
  const run::ExploreConfig* config = nullptr;    // REQUIRED
  const run::ExploreReport* report = nullptr;    // REQUIRED
  double seconds = 0;                            // wall time of the search
};

// "explore NAME (PATH) profile=P order=O ..." through "crash points: ...", one line each.
std::string ExploreText(const ExploreSummary& summary);
// The JSON report, without the counterexample fields (the verb adds them).
nlohmann::json ExploreJson(const ExploreSummary& summary);
// "explore: runs=.. states=.. unique=.. depth=.. states/s=.. frontier=.. t=..s".
std::string ExploreProgressLine(const sim::explore::ExploreStats& stats, double seconds);

}  // namespace repartsim::report
