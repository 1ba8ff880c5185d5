// `repartsim merge REPORT.json... [--json FILE] [--junit FILE]`: joins the --json reports of
// sweep shards (or of any sweeps) into one: runs are concatenated (a run seen twice, same
// scenario and seed, is kept once), scenarios are united, and the per-scenario verdicts and
// failure groups are recomputed over all runs. Prints the summary table; exits like sweep.
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/report_sweep.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct MergeArgs {
  std::vector<std::string> reports;
  std::string json;
  std::string junit;
};

sim::Result<SweepReport> LoadReport(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return sim::Error{{path, 0, 0}, "cannot read report"};
  std::ostringstream buffer;
  buffer << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(buffer.str(), nullptr, false);
  if (j.is_discarded()) return sim::Error{{path, 0, 0}, "not valid JSON"};
  try {
    return SweepReport::FromJson(j, path);
  } catch (const nlohmann::json::exception& e) {
    return sim::Error{{path, 0, 0}, std::string("malformed sweep report: ") + e.what()};
  }
}

int Merge(const MergeArgs& a) {
  if (a.reports.empty()) {
    return ReportInputError({{"<command line>", 1, 1}, "merge needs at least one REPORT.json"});
  }
  SweepReport merged;
  std::set<std::pair<std::string, uint64_t>> seen_runs;
  std::set<std::string> seen_scenarios;
  std::set<std::string> shards;
  for (const std::string& path : a.reports) {
    auto r = LoadReport(path);
    if (!r.ok()) return ReportInputError(r.error());
    SweepReport& part = r.value();
    merged.raw = merged.raw || part.raw;
    if (merged.seeds.empty()) merged.seeds = part.seeds;
    shards.insert(part.shard);
    for (const SweepScenario& s : part.scenarios) {
      if (seen_scenarios.insert(s.path).second) merged.scenarios.push_back(s);
    }
    for (SweepRun& run : part.runs) {
      if (seen_runs.insert({run.path, run.seed}).second) merged.runs.push_back(std::move(run));
    }
    merged.determinism_checked += part.determinism_checked;
    for (const std::string& m : part.determinism_mismatches) merged.determinism_mismatches.push_back(m);
  }
  for (const std::string& s : shards) merged.shard += (merged.shard.empty() ? "" : "+") + s;
  merged.Aggregate();
  std::printf("merged %zu reports: %zu runs\n", a.reports.size(), merged.runs.size());
  merged.PrintSummary(stdout);
  if (!a.json.empty()) {
    sim::Status st = WriteTextFile(a.json, merged.ToJson().dump(1) + "\n");
    if (!st.ok()) return ReportInputError(st.error());
  }
  if (!a.junit.empty()) {
    sim::Status st = WriteTextFile(a.junit, merged.ToJunit());
    if (!st.ok()) return ReportInputError(st.error());
  }
  return merged.ExitCode();
}

}  // namespace

void AddMergeVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<MergeArgs>();
  CLI::App* sub = app.add_subcommand("merge", "Merge sweep --json reports (e.g. of shards)");
  sub->add_option("reports", a->reports, "Sweep JSON reports");
  sub->add_option("--json", a->json, "Write the merged JSON report to FILE");
  sub->add_option("--junit", a->junit, "Write a JUnit XML report to FILE");
  sub->footer("Exit codes as sweep: 0 all met, 1 safety, 2 liveness, 3 nondeterminism, 64 bad input.");
  sub->callback([a, exit_code] { *exit_code = Merge(*a); });
}

}  // namespace repartsim::tools
