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
#include <optional>
#include <variant>

#include "checker/campaign/determinism.h"
#include "checker/campaign/repro_command.h"
#include "checker/report/html_timeline.h"
#include "checker/report/run_text.h"
#include "checker/scenario/crash_sites.h"
#include "checker/scenario/loader.h"
#include "sim/json_text.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/cli_numbers.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/report_sweep.h"
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
  std::string shape_out;
  size_t violations_max = 10;
  bool list_crash_sites = false;
  bool check_determinism = false;
};

// A run's configuration from the flags (located errors), with the output paths checked.
struct Setup {
  run::RunConfig config;
  std::string trace_format;
  std::FILE* report_out = stdout;  // stderr when a trace or JSON report takes stdout
};

sim::Result<Setup> Configure(const RunArgs& a, const std::vector<std::string>& args) {
  if (a.scenario.empty()) return sim::Error{{"<command line>", 1, 1}, "run needs a SCENARIO file"};
  auto seed = ParseSeedFlag("--seed", a.seed, args);
  if (!seed.ok()) return seed.error();
  auto rules = ParseRuleFlags(a.rules, args);
  if (!rules.ok()) return rules.error();
  if (!a.trace_format.empty() && a.trace.empty()) {
    return FlagMessageError(args, "--trace-format needs --trace FILE");
  }
  Setup setup;
  setup.trace_format = a.trace_format.empty() ? "text" : a.trace_format;
  if (!a.profile.empty()) setup.config.profile = a.profile;
  sim::Status valid = ValidateOverrides(setup.config.profile, rules.value(), args);
  if (!valid.ok()) return valid.error();
  // The choice file next to --json is as explicit as --json: checked too (the default one in
  // the current directory is not: it only warns when it cannot be written).
  const std::string json_choices = a.choices.empty() && !a.json.empty() && a.json != "-"
                                       ? ChoicesPath("", a.json, "", "", 0)
                                       : "";
  sim::Status outputs = CheckOutputPaths({{"--trace", a.trace},
                                          {"--json", a.json},
                                          {"--choices", a.choices},
                                          {"--json's choice file", json_choices},
                                          {"--html", a.html},
                                          {"--shape-out", a.shape_out}},
                                         args, {a.scenario});
  if (!outputs.ok()) return outputs.error();
  setup.config.seed = seed.value();
  setup.config.rules = rules.value();
  setup.config.keep_trace = true;
  setup.report_out = a.trace == "-" || a.json == "-" ? stderr : stdout;
  if (!a.trace.empty() && setup.trace_format == "text" && a.trace == "-") {
    setup.config.trace_out = stdout;
  }
  return setup;
}

// Writes the choice file and prints where it is and the repro command. The default file (no
// --choices, no --json) is a convenience: a directory it cannot be written to is a warning,
// never the run's exit code. Returns the file's path ("" when not written) or the exit code.
std::variant<std::string, int> WriteChoices(const RunArgs& a, const Setup& setup,
                                            const run::RunReport& r, int verdict) {
  const bool explicit_choices = !a.choices.empty() || (!a.json.empty() && a.json != "-");
  const std::string choices =
      ChoicesPath(a.choices, a.json == "-" ? "" : a.json, r.scenario, r.profile, setup.config.seed);
  sim::Status st = WriteChoicesFile(choices, r);
  if (!st.ok()) {
    if (explicit_choices) return ReportWriteError(st.error(), verdict);
    std::fprintf(stderr, "warning: %s (the run's verdict stands; use --choices FILE)\n",
                 st.error().Format().c_str());
  } else {
    std::fprintf(setup.report_out, "choices: %s (replay: %s)\n", choices.c_str(),
                 campaign::ShellCommand({"replay", a.scenario, "--choices", choices}).c_str());
  }
  std::fprintf(
      setup.report_out, "repro: %s\n",
      RunReproCommand(a.scenario, setup.config.seed, r.profile, setup.config.rules).c_str());
  return st.ok() ? choices : std::string();
}

// --check-determinism: the seed again; true when it gave the same trace (else printed).
bool SameAgain(const Setup& setup, const scenario::Scenario& s, const run::RunReport& r) {
  run::RunConfig again = setup.config;
  again.trace_out = nullptr;
  auto second = run::RunScenario(s, again);
  const run::RunReport& r2 = second.value();
  if (r2.summary != r.summary || r2.trace_lines != r.trace_lines) {
    std::fprintf(setup.report_out, "NONDETERMINISM: seed %llu ran twice:\nrun 1: %s\nrun 2: %s\n%s",
                 static_cast<unsigned long long>(setup.config.seed), r.SummaryLine().c_str(),
                 r2.SummaryLine().c_str(),
                 campaign::DivergenceReport(r.trace_lines, r2.trace_lines).c_str());
    return false;
  }
  std::fprintf(setup.report_out, "determinism: a second run gave the same trace_hash %s\n",
               Hex64(r2.summary.trace_hash).c_str());
  return true;
}

int RunOnce(const RunArgs& a) {
  if (a.list_crash_sites) {
    for (const std::string& site : scenario::KnownCrashSites()) std::printf("%s\n", site.c_str());
    return kExitPass;
  }
  const std::vector<std::string> args = CommandLineArgs();
  auto setup = Configure(a, args);
  if (!setup.ok()) return ReportInputError(setup.error());
  const Setup& run = setup.value();
  auto s = scenario::LoadScenarioFile(a.scenario);
  if (!s.ok()) return ReportInputError(s.error());
  auto report = run::RunScenario(s.value(), run.config);
  if (!report.ok()) return ReportInputError(report.error());
  const run::RunReport& r = report.value();
  const int verdict = ExitCodeFor(r.outcome);
  // The report first: a trace that cannot be written must not hide what the run found, nor
  // its choice file and repro. Its write error decides the exit code at the end.
  PrintRunReport(run.report_out, s.value(), r, a.violations_max);
  // Every output that can be written is (the JSON first); the failures are reported at the end.
  std::vector<sim::Error> errors;
  if (!a.trace.empty() && (a.trace != "-" || run.trace_format == "jsonl")) {
    sim::Status st = WriteTraceFile(a.trace, run.trace_format, r.trace_lines);
    if (!st.ok()) errors.push_back(st.error());
  }
  const std::variant<std::string, int> choices = WriteChoices(a, run, r, verdict);
  if (a.check_determinism && !SameAgain(run, s.value(), r)) return kExitNondeterminism;
  if (!a.json.empty()) {
    const std::string repro =
        RunReproCommand(a.scenario, run.config.seed, r.profile, run.config.rules);
    const std::string* choices_path = std::get_if<std::string>(&choices);
    nlohmann::json j =
        report::RunReportJson(s.value(), r, choices_path ? *choices_path : "", repro);
    report::StampRunJson(j, BinaryIdentity().first, BinaryIdentity().second);
    sim::Status st = WriteTextFile(a.json, sim::JsonText(j, 2) + "\n");
    if (!st.ok()) errors.push_back(st.error());
  }
  if (!a.html.empty()) {
    sim::Status written =
        WriteTextFile(a.html, report::RenderTimelineHtml(report::MakeTimelineRun(s.value(), r)));
    if (!written.ok()) {
      errors.push_back(written.error());
    } else {
      std::fprintf(run.report_out, "timeline: %s\n", a.html.c_str());
    }
  }
  if (!a.shape_out.empty() && !r.shape_yaml.empty()) {
    sim::Status written = WriteTextFile(a.shape_out, r.shape_yaml);
    if (!written.ok()) errors.push_back(written.error());
  }
  const int written = ReportWriteErrors(errors, verdict);
  return std::holds_alternative<int>(choices) ? std::get<int>(choices) : written;
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
  sub->add_option("--shape-out", a->shape_out,
                  "For a `shape: swarm` scenario: write the scenario the seed drew to FILE");
  sub->add_option("--choices", a->choices,
                  "Write the replay choice file to FILE (default: next to --json, else "
                  "repartsim-<name>-<profile>-<seed>.choices)");
  sub->add_option("--html", a->html,
                  "Write the run's timeline to FILE: one self-contained HTML page");
  sub->add_option("--violations-max", a->violations_max, "Violations printed (default 10)")
      ->check(IntegerIn(0, 1000000));
  sub->add_flag("--list-crash-sites", a->list_crash_sites, "Print the known crash sites");
  sub->add_flag("--check-determinism", a->check_determinism,
                "Run the seed twice; a different trace exits 3 naming the first divergent event");
  sub->footer(
      "Exit codes: 0 pass, 1 safety violation (or a rejected scripted DDL), 2 liveness\n"
      "violation, 3 nondeterminism (--check-determinism), 4 capped (limits.steps_max reached\n"
      "before the liveness phase ended, no violation so far: liveness not judged), 64 bad\n"
      "input or unwritable output path, 73 a report could not be written (after the run; a\n"
      "failing run keeps its own exit code).");
  sub->callback([a, exit_code] { *exit_code = RunOnce(*a); });
}

}  // namespace repartsim::tools
