// The HTML summary of a sweep (`repartsim sweep ... --html FILE`): the scenario rows with
// their outcome counts and verdicts, then the failure groups with their signatures, each
// linking to the timeline page (html_timeline.h) of the group's fastest failing seed, written
// next to FILE. Self-contained like the timeline; no wall times, so the same sweep gives the
// same bytes.
#pragma once

#include <string>
#include <vector>

#include "model/campaign/sweep_report.h"

namespace repartsim::campaign {

// The file of group `index` (0-based) next to `html_path`: "out/sweep.html" -> "out/sweep-g1.html".
std::string SweepTimelinePath(const std::string& html_path, size_t index);

// REQUIRES: report.Aggregate() ran; timelines[i] is the page of report.groups[i] ("" none).
std::string RenderSweepHtml(const SweepReport& report, const std::vector<std::string>& timelines);

}  // namespace repartsim::campaign
