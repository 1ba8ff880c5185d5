// `repartsim run SCENARIO [--seed N] ...`: one run of a scenario. Prints the summary line
// (seed, steps, prng_draws, trace_hash, outcome), the expectation, and every violation with
// its rows and trace excerpt (decisive violations first); writes the choice file needed to
// replay the run and prints the command that reproduces it (with every --rule override).
// --html FILE also writes the run's timeline page (html_timeline.h).
// Exit: 0 pass, 1 safety, 2 liveness, 64 bad input (scenario errors as file:line:col), 73 a
// report write failed after a passing run.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "model/campaign/determinism.h"
#include "model/campaign/html_timeline.h"
#include "model/scenario/crash_sites.h"
#include "model/scenario/loader.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct RunArgs {
  std::string scenario;
  std::string seed = "0";
  std::string profile;
  std::vector<std::string> rules;
  std::string trace;
  std::string trace_format;
  std::string json;
  std::string choices;
  std::string html;
  size_t violations_max = 10;
  bool list_crash_sites = false;
  bool check_determinism = false;
};

int RunOnce(const RunArgs& a) {
  if (a.list_crash_sites) {
    for (const std::string& site : scenario::KnownCrashSites()) std::printf("%s\n", site.c_str());
    return kExitPass;
  }
  if (a.scenario.empty()) {
    return ReportInputError({{"<command line>", 1, 1}, "run needs a SCENARIO file"});
  }
  const std::vector<std::string> args = CommandLineArgs();
  auto seed = ParseSeedFlag("--seed", a.seed, args);
  if (!seed.ok()) return ReportInputError(seed.error());
  auto rules = ParseRuleFlags(a.rules, args);
  if (!rules.ok()) return ReportInputError(rules.error());
  if (!a.trace_format.empty() && a.trace.empty()) {
    return ReportFlagError(args, "--trace-format needs --trace FILE");
  }
  const std::string trace_format = a.trace_format.empty() ? "text" : a.trace_format;
  std::optional<std::string> profile;
  if (!a.profile.empty()) profile = a.profile;
  sim::Status valid = ValidateOverrides(profile, rules.value(), args);
  if (!valid.ok()) return ReportInputError(valid.error());
  // The choice file next to --json is as explicit as --json: checked too (the default one in
  // the current directory is not: it only warns when it cannot be written).
  const std::string json_choices = a.choices.empty() && !a.json.empty() && a.json != "-"
                                       ? ChoicesPath("", a.json, "", "", 0)
                                       : "";
  for (const std::string* out : {&a.trace, &a.json, &a.choices, &json_choices, &a.html}) {
    if (out->empty()) continue;
    sim::Status st = CheckOutputPath(*out, args);
    if (!st.ok()) return ReportInputError(st.error());
  }
  if (a.json == "-" && a.trace == "-") {
    return ReportFlagError(args, "--json - and --trace - cannot both use stdout");
  }
  auto s = scenario::LoadScenarioFile(a.scenario);
  if (!s.ok()) return ReportInputError(s.error());

  scenario::RunConfig config;
  config.seed = seed.value();
  config.profile = profile;
  config.rules = rules.value();
  config.keep_trace = true;
  // A trace or JSON report on stdout keeps stdout for itself: the run report goes to stderr.
  std::FILE* report_out = a.trace == "-" || a.json == "-" ? stderr : stdout;
  if (!a.trace.empty() && trace_format == "text" && a.trace == "-") {
    config.trace_out = stdout;
  }
  auto report = scenario::RunScenario(s.value(), config);
  if (!report.ok()) return ReportInputError(report.error());
  const scenario::RunReport& r = report.value();
  const int verdict = ExitCodeFor(r.outcome);
  if (!a.trace.empty() && a.trace != "-") {
    sim::Status st = WriteTraceFile(a.trace, trace_format, r.trace_lines);
    if (!st.ok()) return ReportWriteError(st.error(), verdict);
  } else if (a.trace == "-" && trace_format == "jsonl") {
    sim::Status st = WriteTraceFile("-", "jsonl", r.trace_lines);
    if (!st.ok()) return ReportWriteError(st.error(), verdict);
  }
  PrintRunReport(report_out, s.value(), r, a.violations_max);
  // The default choice file (no --choices, no --json) is a convenience: a directory it cannot
  // be written to is a warning, never the run's exit code.
  const bool explicit_choices = !a.choices.empty() || (!a.json.empty() && a.json != "-");
  const std::string choices =
      ChoicesPath(a.choices, a.json == "-" ? "" : a.json, r.scenario, r.profile, seed.value());
  sim::Status st = WriteChoicesFile(choices, r);
  if (!st.ok()) {
    if (explicit_choices) return ReportWriteError(st.error(), verdict);
    std::fprintf(stderr, "warning: %s (the run's verdict stands; use --choices FILE)\n",
                 st.error().Format().c_str());
  } else {
    std::fprintf(report_out, "choices: %s (replay: repartsim replay %s --choices %s)\n",
                 choices.c_str(), a.scenario.c_str(), choices.c_str());
  }
  std::fprintf(report_out, "repro: %s\n",
               RunReproCommand(a.scenario, seed.value(), r.profile, rules.value()).c_str());
  if (a.check_determinism) {
    scenario::RunConfig again = config;
    again.trace_out = nullptr;
    auto second = scenario::RunScenario(s.value(), again);
    const scenario::RunReport& r2 = second.value();
    if (r2.summary != r.summary || r2.trace_lines != r.trace_lines) {
      std::fprintf(report_out, "NONDETERMINISM: seed %llu ran twice:\nrun 1: %s\nrun 2: %s\n%s",
                   static_cast<unsigned long long>(seed.value()), r.SummaryLine().c_str(),
                   r2.SummaryLine().c_str(),
                   campaign::DivergenceReport(r.trace_lines, r2.trace_lines).c_str());
      return kExitNondeterminism;
    }
    std::fprintf(report_out, "determinism: a second run gave the same trace_hash %s\n",
                 Hex64(r2.summary.trace_hash).c_str());
  }
  if (!a.html.empty()) {
    sim::Status written = WriteTextFile(
        a.html, campaign::RenderTimelineHtml(campaign::MakeTimelineRun(s.value(), r)));
    if (!written.ok()) return ReportWriteError(written.error(), verdict);
    std::fprintf(report_out, "timeline: %s\n", a.html.c_str());
  }
  if (!a.json.empty()) {
    nlohmann::json j = r.ToJson();
    if (auto e = s.value().ExpectationFor(r.profile, r.rules)) {
      j["expect"] = e->ToString();
      j["expect_met"] = r.Meets(*e);
      j["unexpected"] = r.Unexpected(*e);
    }
    j["choices"] = st.ok() ? choices : "";
    j["repro"] = RunReproCommand(a.scenario, seed.value(), r.profile, rules.value());
    st = WriteTextFile(a.json, j.dump(2) + "\n");
    if (!st.ok()) return ReportWriteError(st.error(), verdict);
  }
  return verdict;
}

}  // namespace

void AddRunVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<RunArgs>();
  CLI::App* sub = app.add_subcommand(
      "run", "Run one scenario with one seed; print the summary line and any violation");
  sub->add_option("scenario", a->scenario, "Scenario YAML file");
  sub->add_option("--seed", a->seed, "Seed of the run, 0 to 2^64-1 (default 0)");
  sub->add_option("--profile", a->profile,
                  "Protocol profile: greptime or reference "
                  "(default: the scenario's)");
  sub->add_option("--rule", a->rules, "Override a rule switch: name=on|off (repeatable)");
  sub->add_option("--trace", a->trace,
                  "Write the trace to FILE ('-' = stdout; the run report then goes to stderr)");
  sub->add_option("--trace-format", a->trace_format, "text (default) or jsonl")
      ->check(CLI::IsMember({"text", "jsonl"}));
  sub->add_option("--json", a->json, "Write the JSON run report to FILE ('-' = stdout)");
  sub->add_option("--choices", a->choices,
                  "Write the replay choice file to FILE (default: next to --json, else "
                  "repartsim-<name>-<profile>-<seed>.choices)");
  sub->add_option("--html", a->html,
                  "Write the run's timeline to FILE: one self-contained HTML page");
  sub->add_option("--violations-max", a->violations_max, "Violations printed (default 10)");
  sub->add_flag("--list-crash-sites", a->list_crash_sites, "Print the known crash sites");
  sub->add_flag("--check-determinism", a->check_determinism,
                "Run the seed twice; a different trace exits 3 naming the first divergent event");
  sub->footer(
      "Exit codes: 0 pass, 1 safety violation (or a rejected scripted DDL), 2 liveness\n"
      "violation, 3 nondeterminism (--check-determinism), 64 bad input or unwritable output path, "
      "73 a report could not be\n"
      "written (after the run; a failing run keeps its own exit code).");
  sub->callback([a, exit_code] { *exit_code = RunOnce(*a); });
}

}  // namespace repartsim::tools
