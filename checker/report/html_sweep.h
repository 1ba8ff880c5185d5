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

// True when `path` has the form of a group page of `html_path` ("out/sweep-g<N>.html", N >= 1):
// a sweep with --html may write it, so no other output or input may name it.
bool IsSweepTimelinePath(const std::string& html_path, const std::string& path);

// Writes, next to `html_path` (SweepTimelinePath), the timeline of each failure group's fastest
// failing seed (GroupTimelineHtml), then the summary page to `html_path`, each atomically. A
// page that fails, or whose file exists and is not a timeline page this tool wrote (never
// clobbered), is left out of the summary and the others are still written; returns the
// errors, in order (empty: all written).
std::vector<sim::Error> WriteSweepHtml(const std::string& html_path,
                                       const campaign::SweepPlan& plan,
                                       const campaign::SweepReport& report);

}  // namespace repartsim::report
