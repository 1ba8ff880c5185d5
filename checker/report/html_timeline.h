// The HTML timeline of one run (docs/timeline.md): ONE self-contained file, plain SVG written
// here plus a little inline script and style (html_assets.h); it loads nothing (a Content
// Security Policy forbids every fetch) and its bytes depend only on the run, so the same run
// gives the same file. It draws, over the driver steps: the procedures as bars of their
// GreptimeDB states, one lane per node (metasrv, each datanode, each frontend) plus the client
// lane with crashes, restarts, pauses, lease expiries and other events, the messages as
// arrows between lanes with every fault, each region's role per datanode, each frontend's
// cached route version, plots of acknowledged rows and of writes in flight or unknown, and
// the violations at their steps with their rows linked to the writes that acknowledged them;
// above the drawing, the run's stories (what happened and why, checker/run/run_story.h).
// The page's `#selftest` fragment runs a self-check and writes its result into the page
// (tests/tools/browser_timeline_test.py).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/check/violation.h"
#include "checker/run/runner.h"
#include "checker/scenario/scenario.h"

namespace repartsim::report {

struct TimelineRun {
  std::string title;  // the scenario's name
  std::string path;   // its file
  std::string profile;
  std::string rules;                    // overrides, "" none
  std::string faults;                   // the effective fault mix
  std::string summary_line;             // "seed=.. steps=.. prng_draws=.. trace_hash=.. outcome=.."
  std::string expect;                   // "violation: INV-ACK -> met", "" when none
  std::string end;                      // "quiescent at t=27005 ms"
  std::vector<std::string> node_names;  // by node id: metasrv, dn1.., fe1..
  std::vector<std::string> trace_lines;
  std::vector<check::Violation> violations;
  std::vector<run::Story> stories;  // shown above the drawing
};

// {"metasrv", "dn1", .., "dn<D>", "fe1", .., "fe<F>"}: node n<k> is element k.
std::vector<std::string> TimelineNodeNames(uint32_t datanode_count, uint32_t frontend_count);

// REQUIRES: `report` was run with RunConfig::keep_trace.
TimelineRun MakeTimelineRun(const scenario::Scenario& scenario, const run::RunReport& report);

// The page. Deterministic: equal runs give equal bytes.
std::string RenderTimelineHtml(const TimelineRun& run);

}  // namespace repartsim::report
