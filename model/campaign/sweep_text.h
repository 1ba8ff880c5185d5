// A sweep report (sweep_report.h) as a person and as CI read it: JUnit XML (one testcase per
// scenario row, <skipped/> when no run ran, a <failure> listing the row's failure groups with
// their repro commands), the text summary (the table of rows, the failure groups, the
// determinism re-check, the notes and the totals line) and the short form (the rows not met,
// the notes and the totals). REQUIRES of each: the report is aggregated.
#pragma once

#include <string>

#include "model/campaign/sweep_report.h"

namespace repartsim::campaign {

std::string SweepJunit(const SweepReport& report);
std::string SweepSummaryText(const SweepReport& report);
std::string SweepTotalsText(const SweepReport& report);

}  // namespace repartsim::campaign
