#include "tools/repartsim/report_sweep.h"

#include <algorithm>

#include "checker/campaign/output_files.h"
#include "checker/report/sweep_text.h"
#include "checker/scenario/loader.h"
#include "sim/json_text.h"
#include "tools/repartsim/colour.h"

namespace repartsim::tools {

void WriteSweepReportFiles(const std::string& json, const std::string& junit,
                           const campaign::SweepReport& report, std::vector<sim::Error>& errors) {
  if (!json.empty()) {
    sim::Status st = campaign::WriteTextFile(json, sim::JsonText(report.ToJson(), 1) + "\n");
    if (!st.ok()) errors.push_back(st.error());
  }
  if (!junit.empty()) {
    sim::Status st = campaign::WriteTextFile(junit, report::SweepJunit(report));
    if (!st.ok()) errors.push_back(st.error());
  }
}

std::pair<std::string, std::string> BinaryIdentity() {
  static const std::pair<std::string, std::string> identity = {
      std::string(REPARTSIM_VERSION), campaign::FileHash("/proc/self/exe")};
  return identity;
}

namespace {

// The first story of the fastest failing run of each group the summary prints (the UNEXPECTED
// ones; every one when `verbose`), at most kStoriesMax runs: each run again with its trace kept.
// A scenario that no longer loads from the report's path (a merged report read elsewhere) has
// none.
report::GroupStories FirstStories(const campaign::SweepReport& report, bool verbose) {
  constexpr size_t kStoriesMax = 10;
  report::GroupStories stories;
  for (const campaign::SweepGroup& g : report.groups) {
    if (stories.size() == kStoriesMax) break;
    if (!verbose && (g.status == "expected" || g.status == "tolerated")) continue;
    // An internal-error run is not re-run here: it would end this process as it ended its
    // worker (the sweep's report would be lost).
    if (g.invariant == campaign::kInternalErrorName) continue;
    const std::string repro = campaign::ReproCommand(g.path, g.fastest_seed, g.profile, g.rules);
    if (stories.count(repro) != 0) continue;
    auto s = scenario::LoadScenarioFile(g.path);
    if (!s.ok()) continue;
    run::RunConfig config;
    config.seed = g.fastest_seed;
    config.profile = g.profile;
    config.keep_trace = true;
    for (size_t at = 0; at < g.rules.size();) {  // "a=off,b=on": the sweep's --rule overrides
      const size_t end = std::min(g.rules.find(',', at), g.rules.size());
      const std::string rule = g.rules.substr(at, end - at);
      config.rules.emplace_back(rule.substr(0, rule.find('=')),
                                rule.substr(rule.find('=') + 1) == "on");
      at = end + 1;
    }
    auto r = run::RunScenario(s.value(), config);
    if (r.ok() && !r.value().stories.empty()) stories[repro] = r.value().stories[0].cause;
  }
  return stories;
}

}  // namespace

void PrintSweepSummary(const campaign::SweepReport& report, bool verbose, std::FILE* out) {
  WriteColoured(out, report::SweepSummaryText(report, verbose, FirstStories(report, verbose)));
}

void PrintSweepTotals(const campaign::SweepReport& report, std::FILE* out) {
  const std::string text = report::SweepTotalsText(report);
  std::fwrite(text.data(), 1, text.size(), out);
}

}  // namespace repartsim::tools
