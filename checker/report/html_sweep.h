// The HTML summary of a sweep (`repartsim sweep ... --html FILE`): the scenario rows with
// their outcome counts and verdicts, then the failure groups with their signatures, each
// linking to the timeline page (html_timeline.h) of the group's fastest failing seed, written
// next to FILE. Self-contained like the timeline; no wall times, so the same sweep gives the
// same bytes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/campaign/sweep_plan.h"
#include "checker/campaign/sweep_report.h"

namespace repartsim::report {

// The file of group `index` (0-based) next to `html_path`: "out/sweep.html" -> "out/sweep-g1.html".
std::string SweepTimelinePath(const std::string& html_path, size_t index);

// REQUIRES: report.Aggregate() ran; timelines[i] is the page of report.groups[i] ("" none).
std::string RenderSweepHtml(const campaign::SweepReport& report,
                            const std::vector<std::string>& timelines);

// The timeline page of each failure group's fastest failing seed, run again here with the
// trace kept, in group order; nullopt for a group whose scenario the plan does not hold.
std::vector<std::optional<std::string>> GroupTimelineHtml(const campaign::SweepPlan& plan,
                                                          const campaign::SweepReport& report);

// Writes the summary page to `html_path` and, next to it (SweepTimelinePath), the timeline
// of each failure group's fastest failing seed (GroupTimelineHtml), each atomically; the first
// write error stops it.
sim::Status WriteSweepHtml(const std::string& html_path, const campaign::SweepPlan& plan,
                           const campaign::SweepReport& report);

}  // namespace repartsim::report
