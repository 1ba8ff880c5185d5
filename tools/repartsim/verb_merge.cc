// `repartsim merge REPORT.json... [--json FILE] [--junit FILE]`: joins the --json reports of
// sweep shards (or of several sweeps) with campaign::MergeSweepReports
// (checker/campaign/sweep_merge.h, which lists what it refuses). Every report is validated on
// read (campaign::SweepReport::FromJson); a refused or malformed report is a located error,
// exit 64. Prints the summary; exits like sweep.
#include <CLI/CLI.hpp>
#include <memory>

#include "checker/campaign/sweep_merge.h"
#include "checker/check/check_at.h"
#include "sim/input_file.h"
#include "sim/json_text.h"
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
  bool quiet = false;
  bool verbose = false;
};

sim::Result<campaign::MergePart> LoadReport(const std::string& path) {
  auto text = sim::ReadInputFile(path, campaign::kSweepReportBytesMax, "sweep report");
  if (!text.ok()) return text.error();
  campaign::MergePart part;
  part.path = path;
  part.text = std::move(text).value();
  auto r = campaign::SweepReport::FromJson(part.text, path);
  if (!r.ok()) return r.error();
  part.report = std::move(r).value();
  return part;
}

int Merge(const MergeArgs& a) {
  const std::vector<std::string> args = CommandLineArgs();
  if (a.reports.empty()) {
    return ReportInputError({{"<command line>", 1, 1}, "merge needs at least one REPORT.json"});
  }
  sim::Status outputs =
      CheckOutputPaths({{"--json", a.json}, {"--junit", a.junit}}, args, a.reports);
  if (!outputs.ok()) return ReportInputError(outputs.error());
  std::vector<campaign::MergePart> parts;
  for (const std::string& path : a.reports) {
    auto r = LoadReport(path);
    if (!r.ok()) return ReportInputError(r.error());
    parts.push_back(std::move(r).value());
  }
  auto result = campaign::MergeSweepReports(parts);
  if (!result.ok()) return ReportInputError(result.error());
  const campaign::SweepReport& merged = result.value().report;
  std::FILE* out = a.json == "-" || a.junit == "-" ? stderr : stdout;
  std::fprintf(out, "merged %s (%s, every shard once): %s\n",
               check::Plural(parts.size(), "report").c_str(),
               check::Plural(result.value().sweeps, "sweep").c_str(),
               check::Plural(merged.runs.size(), "run").c_str());
  if (a.quiet) {
    PrintSweepTotals(merged, out);
  } else {
    PrintSweepSummary(merged, a.verbose, out);
  }
  const int verdict = merged.ExitCode();
  std::vector<sim::Error> errors;
  WriteSweepReportFiles(a.json, a.junit, merged, errors);
  return ReportWriteErrors(errors, verdict);
}

}  // namespace

void AddMergeVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<MergeArgs>();
  CLI::App* sub = app.add_subcommand(
      "merge", "Merge sweep --json reports (shards, profiles); check every shard is there once");
  sub->add_option("reports", a->reports, "Sweep JSON reports");
  sub->add_option("--json", a->json, "Write the merged JSON report to FILE ('-' = stdout)");
  sub->add_option("--junit", a->junit, "Write a JUnit XML report to FILE ('-' = stdout)");
  sub->add_flag("--quiet,-q", a->quiet, "Print only the unmet rows and the totals line");
  sub->add_flag("--verbose,-v", a->verbose,
                "List every scenario row and failure group (expected and tolerated ones too)");
  sub->footer(
      "Refuses (exit 64, located error) reports of different binaries, a missing or repeated\n"
      "shard, a scenario changed between reports, a run in two reports, a malformed report.\n"
      "Exit codes otherwise as sweep: 0 all met, 1 safety, 2 liveness, 3 nondeterminism,\n"
      "70 runs never ran (a worker died), 73 a report could not be written.");
  sub->callback([a, exit_code] { *exit_code = Merge(*a); });
}

}  // namespace repartsim::tools
