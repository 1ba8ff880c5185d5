// The report of one run a person reads (run, replay, explore): the header, the summary line,
// how the run ended, the history and probe counts, the expectation and whether the run met it,
// nondeterminism, and the first `violations_max` violations (decisive first, each trace line
// shown once; the rest counted by invariant; the JSON report has all), then the invariant
// totals.
#pragma once

#include <cstddef>
#include <string>

#include "model/run/runner.h"
#include "model/scenario/scenario.h"

namespace repartsim::campaign {

std::string RunReportText(const scenario::Scenario& scenario, const scenario::RunReport& report,
                          size_t violations_max);

}  // namespace repartsim::campaign
