// The CLI's side of a sweep report (checker/campaign/sweep_report.h, rendered by sweep_text.h):
// printing the summary or the totals, and the identity of this executable that every report
// carries.
#pragma once

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "checker/campaign/sweep_report.h"
#include "checker/report/sweep_text.h"

namespace repartsim::tools {

// report::SweepSummaryText on `out` (`verbose`: every row and failure group).
void PrintSweepSummary(const campaign::SweepReport& report, bool verbose, std::FILE* out);
// report::SweepTotalsText on `out`: the rows not met, the notes and the totals line.
void PrintSweepTotals(const campaign::SweepReport& report, std::FILE* out);
// Writes `report` as JSON to `json` and as JUnit to `junit` (each "" = not asked for), the JSON
// first, each even when the other fails; appends the failures to `errors`.
void WriteSweepReportFiles(const std::string& json, const std::string& junit,
                           const campaign::SweepReport& report, std::vector<sim::Error>& errors);
// The version and build id of this executable (the id hashes /proc/self/exe, once).
std::pair<std::string, std::string> BinaryIdentity();

}  // namespace repartsim::tools
