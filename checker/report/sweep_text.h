// A sweep report (sweep_report.h) as a person and as CI read it: JUnit XML (one testcase per
// scenario row, <skipped/> when no run ran, a <failure> listing the row's failure groups with
// their repro commands), the text summary and the short form (the rows not met, the notes and
// the totals). REQUIRES of each: the report is aggregated.
#pragma once

#include <map>
#include <string>

#include "checker/campaign/sweep_report.h"

namespace repartsim::report {

std::string SweepJunit(const campaign::SweepReport& report);
// The summary, quiet when green: the table of the rows not met and the failure groups that are
// not expected or tolerated (each with its repro command), one line counting the rows met and
// the expected and tolerated groups, the determinism re-check, the notes and the totals line.
// `verbose`: every row and every group, and no counting line.
// `stories`: the first story (run_story.h) of a group's fastest failing run, by the group's
// repro command (campaign::ReproCommand), printed under the group ("story: ..."). The groups
// one run gave (one scenario row, status, fastest seed and count) print as one: "INV-ACK,
// INV-NOOMIT".
using GroupStories = std::map<std::string, std::string>;
std::string SweepSummaryText(const campaign::SweepReport& report, bool verbose,
                             const GroupStories& stories = {});
std::string SweepTotalsText(const campaign::SweepReport& report);

// The sweep's progress: "[#####     ] 12/40 runs, 1 unexpected, 8.5 runs/s, 0:01 elapsed,
// about 0:03 left " (a 30-column bar; `ms` since the start, at least 1 is assumed for the
// rate; the time left is the mean time per run so far times the runs left). Runs a time budget
// skipped count in neither `done` nor `total`.
std::string SweepProgressLine(size_t done, size_t total, size_t unexpected, int64_t ms);

}  // namespace repartsim::report
