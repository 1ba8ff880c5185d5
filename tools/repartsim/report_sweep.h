// The CLI's renderings of a sweep report (model/campaign/sweep_report.h): JUnit XML (one
// testcase per scenario row, <skipped/> when no run ran), the text summary and the totals;
// and the identity of this executable that every report carries.
#pragma once

#include <cstdio>
#include <string>
#include <utility>

#include "model/campaign/sweep_report.h"

namespace repartsim::tools {

using campaign::FailureSignature;
using campaign::kSweepReportVersion;
using campaign::LocateReportField;
using campaign::ReproCommand;
using campaign::RunFromJson;
using campaign::RunToJson;
using campaign::ScenarioTally;
using campaign::SweepFailure;
using campaign::SweepGroup;
using campaign::SweepReport;
using campaign::SweepRun;
using campaign::SweepScenario;
using campaign::ToSweepRun;

// JUnit XML: one testcase per scenario row; a row not met is a <failure> listing its failure
// groups with their repro commands.
std::string SweepJunit(const SweepReport& report);
// The summary table, the failure groups with their repro commands, the determinism re-check,
// the notes and the totals line.
void PrintSweepSummary(const SweepReport& report, std::FILE* out);
// Only the rows not met (with their verdicts), the notes and the totals line.
void PrintSweepTotals(const SweepReport& report, std::FILE* out);
// The version and build id of this executable (the id hashes /proc/self/exe, once).
std::pair<std::string, std::string> BinaryIdentity();

}  // namespace repartsim::tools
