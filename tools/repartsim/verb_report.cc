// `repartsim report RUN.json --html FILE`: renders a run's JSON report (`repartsim run --json`)
// as its timeline page, so a CI artefact can be looked at later. The report names the run
// (scenario path, seed, profile, rule overrides) and its trace hash but not its trace: the
// verb runs the scenario again, which is deterministic, and refuses a run whose trace hash
// differs from the report's (another binary, or an edited scenario). A scenario path that
// does not exist as given is looked up next to RUN.json; --scenario FILE overrides it.
// Exit: 0 written, 64 bad input (a malformed report as file:line:col, a scenario error, a
// trace hash mismatch), 73 the page could not be written.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "checker/report/html_timeline.h"
#include "checker/report/run_text.h"
#include "checker/scenario/loader.h"
#include "sim/input_file.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/report_sweep.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct ReportArgs {
  std::string json;
  std::string html;
  std::string scenario;
};

int Report(const ReportArgs& a) {
  const std::vector<std::string> args = CommandLineArgs();
  if (a.json.empty()) return ReportInputError({{"<command line>", 1, 1}, "report needs RUN.json"});
  if (a.html.empty()) return ReportFlagError(args, "report needs --html FILE");
  sim::Status out = CheckOutputPath("--html", a.html, args, {a.json, a.scenario});
  if (!out.ok()) return ReportInputError(out.error());
  auto read = sim::ReadInputFile(a.json, report::kRunReportBytesMax, "run report");
  if (!read.ok()) return ReportInputError(read.error());
  const std::string& text = read.value();
  auto id = report::ReadRunIdentity(text, a.json);
  if (!id.ok()) return ReportInputError(id.error());
  std::string path = a.scenario.empty() ? id.value().path : a.scenario;
  if (a.scenario.empty() && !std::filesystem::exists(path)) {
    const std::filesystem::path near =
        std::filesystem::path(a.json).parent_path() / std::filesystem::path(path).filename();
    if (std::filesystem::exists(near)) path = near.string();
  }
  auto s = scenario::LoadScenarioFile(path);
  if (!s.ok()) return ReportInputError(s.error());
  run::RunConfig config;
  config.seed = id.value().seed;
  config.profile = id.value().profile;
  config.rules = id.value().rules;
  config.keep_trace = true;
  auto report = run::RunScenario(s.value(), config);
  if (!report.ok()) return ReportInputError(report.error());
  const run::RunReport& r = report.value();
  if (Hex64(r.summary.trace_hash) != id.value().trace_hash) {
    return ReportInputError({campaign::LocateReportField(text, {"summary", "trace_hash"}, a.json),
                             "running " + path + " again gives trace_hash " +
                                 Hex64(r.summary.trace_hash) + ", not the report's " +
                                 id.value().trace_hash +
                                 " (another binary or an edited scenario)"});
  }
  sim::Status written =
      WriteTextFile(a.html, report::RenderTimelineHtml(report::MakeTimelineRun(s.value(), r)));
  if (!written.ok()) return ReportWriteError(written.error(), kExitPass);
  std::printf("%s\ntimeline: %s\n", r.SummaryLine().c_str(), a.html.c_str());
  return kExitPass;
}

}  // namespace

void AddReportVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<ReportArgs>();
  CLI::App* sub =
      app.add_subcommand("report", "Render a run's JSON report (run --json) as its HTML timeline");
  sub->add_option("run_json", a->json, "The run's JSON report (repartsim run --json FILE)");
  sub->add_option("--html", a->html, "Write the timeline page to FILE");
  sub->add_option("--scenario", a->scenario,
                  "The scenario file (default: the report's path, else that name next to "
                  "RUN.json)");
  sub->footer(
      "The scenario runs again (deterministic); its trace hash must be the report's.\n"
      "Exit codes: 0 written, 64 bad input (file:line:col: error: message), 73 the\n"
      "page could not be written.");
  sub->callback([a, exit_code] { *exit_code = Report(*a); });
}

}  // namespace repartsim::tools
