// `repartsim sweep SCENARIO|DIR... [--seeds A..B] [--jobs J] [--shard I/N] [--time-budget D]`:
// many seeds of many scenarios (a directory stands for every *.yaml under it; --tag keeps the
// scenarios carrying one of the tags). The plan, shards, resume, the worker processes and the
// determinism re-check are checker/campaign/sweep_plan.h; verdicts and groups sweep_report.h.
// Here: the flags (--shard env reads I from JOB_COMPLETION_INDEX, N from
// REPARTSIM_SHARD_COUNT), output paths checked before any run (exit 64), SIGINT/SIGTERM (the
// finished runs are reported, the rest skipped; --resume FILE continues), the progress bar,
// and the reports, written atomically (--html: html_sweep.h).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "checker/campaign/stop_signals.h"
#include "checker/campaign/sweep_plan.h"
#include "checker/report/html_sweep.h"
#include "checker/report/sweep_text.h"
#include "checker/scenario/loader.h"
#include "model/sql/parser.h"
#include "sim/assert.h"
#include "sim/fingerprint.h"
#include "sim/json_text.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/cli_numbers.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/report_sweep.h"
#include "tools/repartsim/scenario_paths.h"
#include "tools/repartsim/stopwatch.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct SweepArgs {
  std::vector<std::string> scenarios;
  std::string seeds;
  uint32_t jobs = 1;
  std::string shard = "0/1";
  std::string time_budget;
  std::string junit;
  std::string json;
  std::string html;
  std::string profile;
  std::string resume;
  std::vector<std::string> rules;
  std::vector<std::string> tags;
  bool raw = false;
  bool quiet = false;
  bool verbose = false;
  uint32_t recheck = 2;
  bool check_determinism = false;
};

void Progress(bool quiet, size_t done, size_t total, size_t unexpected, const Stopwatch& clock) {
  if (quiet) return;
  // Not a terminal (CI logs): one line per tenth of the sweep instead of a live bar.
  if (!isatty(2) && done != total && (total < 10 || done % (total / 10) != 0)) return;
  if (isatty(2)) std::fputc('\r', stderr);
  std::fputs(report::SweepProgressLine(done, total, unexpected, clock.Ms()).c_str(), stderr);
  if (done == total || !isatty(2)) std::fprintf(stderr, "\n");
}

// Test hooks (tests/tools/sweep_cli_test.cc), read once per sweep:
//   REPARTSIM_TEST_KILL_WORKER=W     worker W (1-based) kills itself (SIGKILL) after one run;
//   REPARTSIM_TEST_SIGNAL_AFTER=N    the sweep sends itself SIGTERM after N finished runs;
//   REPARTSIM_TEST_SIGNAL_AT_START=1 the sweep sends itself SIGTERM before it loads anything;
//   REPARTSIM_TEST_INTERNAL_ERROR_SEED=N every run of seed N fails an assertion (exit 70).
uint64_t TestHook(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? 0 : std::strtoull(value, nullptr, 10);
}

// Runs the plan's remaining items: progress on stderr, SIGINT/SIGTERM stop it, and the test
// hooks above. `clock` started with the verb: the time budget includes the start-up.
campaign::SweepExecution Execute(const campaign::SweepPlan& plan,
                                 std::vector<campaign::SweepRun> runs, uint32_t jobs, bool quiet,
                                 const Stopwatch& clock) {
  const uint64_t kill_worker = TestHook("REPARTSIM_TEST_KILL_WORKER");
  const uint64_t signal_after = TestHook("REPARTSIM_TEST_SIGNAL_AFTER");
  campaign::SweepHooks hooks;
  hooks.now_ms = [&clock] { return clock.Ms(); };
  hooks.should_stop = [] { return campaign::StopSignals::Received() != 0; };
  hooks.in_child = [] { campaign::StopSignals::ResetInChild(); };
  hooks.progress = [&](size_t done, size_t total, size_t unexpected) {
    Progress(quiet, done, total, unexpected, clock);
    if (signal_after != 0 && done == signal_after) raise(SIGTERM);
  };
  if (kill_worker != 0) {
    hooks.after_report = [kill_worker](size_t, uint32_t worker) {
      if (kill_worker == worker + 1) raise(SIGKILL);
    };
  }
  if (const char* seed = std::getenv("REPARTSIM_TEST_INTERNAL_ERROR_SEED")) {
    hooks.before_run = [failing = std::strtoull(seed, nullptr, 10)](uint64_t run_seed) {
      REPARTSIM_ASSERT_MSG(run_seed != failing, "REPARTSIM_TEST_INTERNAL_ERROR_SEED");
    };
  }
  return campaign::ExecuteSweep(plan, std::move(runs), jobs, hooks);
}

// --shard "I/N", or "env": I from JOB_COMPLETION_INDEX, N from REPARTSIM_SHARD_COUNT.
sim::Result<campaign::Shard> ParseShard(const std::string& text,
                                        const std::vector<std::string>& args) {
  std::string spec = text;
  if (text == "env") {
    const char* index = std::getenv("JOB_COMPLETION_INDEX");
    const char* count = std::getenv("REPARTSIM_SHARD_COUNT");
    if (index == nullptr || count == nullptr) {
      return sim::Error{{"<command line>", 1, ArgumentColumn(args, text)},
                        "--shard env needs JOB_COMPLETION_INDEX and REPARTSIM_SHARD_COUNT in the "
                        "environment"};
    }
    spec = std::string(index) + "/" + count;
  }
  if (std::optional<campaign::Shard> shard = campaign::ParseShard(spec)) return *shard;
  return sim::Error{
      {"<command line>", 1, ArgumentColumn(args, text)},
      "--shard expects I/N with 0 <= I < N <= 4294967295 (or env), got '" + spec + "'"};
}

sim::Result<campaign::SweepReport> LoadResume(const std::string& path,
                                              const std::vector<std::string>& args) {
  auto report = campaign::ReadSweepReport(path);
  if (report.ok() || report.error().location.line != 0) return report;
  return sim::Error{{"<command line>", 1, ArgumentColumn(args, path)},
                    "--resume: " + path + ": " + report.error().message};
}

// Writes every report that can be written, the JSON first, then the JUnit and the HTML pages;
// the failures are printed at the end and decide the exit code only when `verdict` passed.
int WriteReports(const SweepArgs& a, const campaign::SweepPlan& plan,
                 const campaign::SweepReport& report, int verdict) {
  std::vector<sim::Error> errors;
  WriteSweepReportFiles(a.json, a.junit, report, errors);
  if (!a.html.empty()) {
    for (sim::Error& e : report::WriteSweepHtml(a.html, plan, report)) {
      errors.push_back(std::move(e));
    }
  }
  return ReportWriteErrors(errors, verdict);
}

// --html FILE also writes FILE-g<N>.html, one per failure group, known only at the end: no
// other output, and no scenario, may have a name of that form (report::IsSweepTimelinePath).
std::optional<sim::Error> GroupPageCollision(const SweepArgs& a,
                                             const std::vector<std::string>& args,
                                             const std::vector<std::string>& inputs) {
  if (a.html.empty() || a.html == "-") return std::nullopt;
  std::error_code ec;
  const std::string html = std::filesystem::weakly_canonical(a.html, ec).string();
  std::vector<std::pair<std::string, std::string>> named = {{"--json", a.json},
                                                            {"--junit", a.junit}};
  for (const std::string& in : inputs) named.emplace_back(in, in);
  for (const auto& [flag, path] : named) {
    if (path.empty() || path == "-") continue;
    const std::string resolved = std::filesystem::weakly_canonical(path, ec).string();
    if (!report::IsSweepTimelinePath(html, resolved)) continue;
    return sim::Error{{"<command line>", 1, ArgumentColumn(args, flag)},
                      (flag == path ? "scenario " + path : flag + " " + path) +
                          " has the name of a group page --html " + a.html + " may write (" +
                          report::SweepTimelinePath(a.html, 0) + ", ...); choose another name"};
  }
  return std::nullopt;
}

// Everything a sweep needs before its first run, checked (exit 64 on a bad flag or file).
struct Prepared {
  std::unique_ptr<campaign::SweepPlan> plan;
  campaign::SweepReport report;
  std::vector<campaign::SweepRun> runs;  // resumed runs (empty: none)
};

// Loads each scenario (those carrying one of --tag, when given) into the plan and its row
// into the report.
sim::Status AddScenarios(const SweepArgs& a, const std::vector<std::string>& args,
                         const std::vector<std::string>& paths, bool seeds_flag, Prepared& p) {
  for (const std::string& path : paths) {
    auto s = scenario::LoadScenarioFile(path);
    if (!s.ok()) return s.error();
    const std::vector<std::string>& tags = s.value().tags;
    if (!a.tags.empty() && std::none_of(a.tags.begin(), a.tags.end(), [&](const std::string& t) {
          return std::find(tags.begin(), tags.end(), t) != tags.end();
        })) {
      continue;
    }
    // A range too big for one sweep is located where it was written: --seeds, else the
    // scenario's `seeds:`.
    const sim::SourceLocation seeds_at =
        !seeds_flag && !s.value().seeds_location.file.empty()
            ? s.value().seeds_location
            : sim::SourceLocation{"<command line>", 1,
                                  ArgumentColumn(args, seeds_flag ? a.seeds : path)};
    sim::Status added = p.plan->Add(std::move(s).value(), campaign::FileHash(path), p.report);
    if (!added.ok()) return sim::Error{seeds_at, added.error().message};
  }
  return sim::Ok{};
}

sim::Result<Prepared> Prepare(const SweepArgs& a, const std::vector<std::string>& args) {
  if (a.scenarios.empty())
    return sim::Error{{"<command line>", 1, 1}, "sweep needs at least one SCENARIO"};
  auto rules = ParseRuleFlags(a.rules, args);
  if (!rules.ok()) return rules.error();
  run::RunConfig base;
  if (!a.profile.empty()) base.profile = a.profile;
  base.rules = rules.value();
  sim::Status valid = ValidateOverrides(base.profile, base.rules, args);
  if (!valid.ok()) return valid.error();
  auto shard = ParseShard(a.shard, args);
  if (!shard.ok()) return shard.error();
  int64_t budget_ms = 0;
  if (!a.time_budget.empty()) {
    auto ms = model::sql::ParseDurationMs(a.time_budget);
    if (!ms.ok()) {
      return sim::Error{{"<command line>", 1, ArgumentColumn(args, a.time_budget)},
                        "--time-budget: " + ms.error().message};
    }
    budget_ms = ms.value();
  }
  std::optional<std::pair<uint64_t, uint64_t>> range;
  if (!a.seeds.empty()) {
    auto r = ParseRange(a.seeds, args);
    if (!r.ok()) return r.error();
    range = r.value();
  }
  auto paths = ExpandScenarioPaths(a.scenarios, args);
  if (!paths.ok()) return paths.error();
  // --resume p.json --json p.json is allowed: the report is read before anything is written.
  sim::Status outputs = CheckOutputPaths(
      {{"--json", a.json}, {"--junit", a.junit}, {"--html", a.html}}, args, paths.value());
  if (!outputs.ok()) return outputs.error();
  if (std::optional<sim::Error> page = GroupPageCollision(a, args, paths.value())) return *page;
  Prepared p;
  p.plan = std::make_unique<campaign::SweepPlan>(base, shard.value(), range);
  p.plan->budget_ms = budget_ms;
  p.plan->raw = a.raw;
  campaign::SweepReport& report = p.report;
  report.binary_version = REPARTSIM_VERSION;  // the id hashes the whole executable: when needed
  if (!a.json.empty() || !a.resume.empty()) report.binary_id = BinaryIdentity().second;
  report.seeds = range ? a.seeds : "per-scenario";
  report.shard = shard.value().Text();
  report.complete = shard.value().count == 1;
  report.rules = p.plan->rules();
  report.raw = a.raw;
  sim::Status added = AddScenarios(a, args, paths.value(), range.has_value(), p);
  if (!added.ok()) return added.error();
  if (p.plan->scenarios().empty()) {
    return sim::Error{{"<command line>", 1, 1}, "no scenario carries any of the --tag tags"};
  }
  report.sweep_id = report.SweepId();
  if (!a.resume.empty()) {
    auto previous = LoadResume(a.resume, args);
    if (!previous.ok()) return previous.error();
    std::string note;
    auto runs = p.plan->Resume(previous.value(), report, a.resume, &note);
    if (!runs.ok()) {
      return sim::Error{{"<command line>", 1, ArgumentColumn(args, a.resume)},
                        "--resume: " + runs.error().message};
    }
    p.runs = std::move(runs).value();
    report.notes.push_back(note);
  }
  return p;
}

int Sweep(const SweepArgs& a) {
  const Stopwatch clock;
  const std::vector<std::string> args = CommandLineArgs();
  // From before the start-up until the reports are written: a stop during the loading still
  // writes the (incomplete) report, every planned run unrun.
  campaign::StopSignals signals;
  if (TestHook("REPARTSIM_TEST_SIGNAL_AT_START") != 0) raise(SIGTERM);
  auto prepared = Prepare(a, args);
  if (!prepared.ok()) return ReportInputError(prepared.error());
  const campaign::SweepPlan& plan = *prepared.value().plan;
  campaign::SweepReport& report = prepared.value().report;
  int verdict = campaign::FinishSweep(
      plan, Execute(plan, std::move(prepared.value().runs), a.jobs, a.quiet, clock),
      a.check_determinism ? UINT32_MAX : a.recheck, report);
  report.wall_ms = clock.Ms();
  // A report on stdout keeps stdout for itself: the table goes to stderr.
  const bool report_on_stdout = a.json == "-" || a.junit == "-";
  PrintSweepSummary(report, a.verbose, report_on_stdout ? stderr : stdout);
  return WriteReports(a, plan, report, verdict);
}

}  // namespace

void AddSweepVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<SweepArgs>();
  CLI::App* sub = app.add_subcommand(
      "sweep", "Run many seeds of scenarios; group failures; JSON/JUnit reports");
  sub->add_option("scenarios", a->scenarios,
                  "Scenario YAML files or directories (every *.yaml under them)");
  sub->add_option("--seeds", a->seeds, "Seed range A..B (default: each scenario's `seeds`)");
  sub->add_option("--jobs,-j", a->jobs, "Parallel worker processes (default 1)")
      ->check(IntegerIn(1, 256));
  sub->add_option("--shard", a->shard,
                  "Run shard I of N of the (scenario, seed) list: I/N, or env "
                  "(JOB_COMPLETION_INDEX / REPARTSIM_SHARD_COUNT)");
  sub->add_option("--time-budget", a->time_budget,
                  "Stop starting runs after this wall time from the start (e.g. 90s, 5m); runs go "
                  "seed-major, so every scenario is sampled; the rest are skipped");
  sub->add_option("--junit", a->junit, "Write a JUnit XML report to FILE ('-' = stdout)");
  sub->add_option("--json", a->json,
                  "Write the JSON sweep report (mergeable) to FILE ('-' = stdout)");
  sub->add_option("--html", a->html,
                  "Write an HTML summary to FILE, with the timeline of each failure group's "
                  "fastest failing seed next to it (FILE-g<N>.html)");
  sub->add_option("--resume", a->resume,
                  "Continue the sweep of this (partial, e.g. interrupted) --json report");
  sub->add_option("--profile", a->profile, "Protocol profile for every scenario");
  sub->add_option("--rule", a->rules, "Override a rule switch: name=on|off (repeatable)");
  sub->add_option("--tag", a->tags, "Only scenarios with this tag (repeatable: any of them)");
  sub->add_flag("--check-determinism", a->check_determinism,
                "Re-run every seed (not a sample) for the determinism check; a mismatch exits 3");
  sub->add_option("--recheck", a->recheck,
                  "Seeds per scenario re-run for the determinism check (default 2)")
      ->check(IntegerIn(0, UINT32_MAX));
  sub->add_flag("--raw", a->raw, "Ignore expectations: any violation fails the sweep");
  sub->add_flag("--quiet,-q", a->quiet, "No progress bar");
  sub->add_flag("--verbose,-v", a->verbose,
                "List every scenario row and failure group (expected and tolerated ones too)");
  sub->footer(
      "A scenario meets its expectation when no run reports an invariant it does not allow\n"
      "(its `violation:`, its `tolerate:` list, READ-ANOMALY) and, for `violation: X`, some run\n"
      "reports X (a shard of several leaves that to merge). A run capped at limits.steps_max\n"
      "before its liveness phase ended is counted apart (`capped`) and fails no row.\n"
      "Exit codes: 0 all met, 1 a safety\n"
      "violation, unexpected invariant or expected one not reproduced, 2 only liveness,\n"
      "3 nondeterminism, 64 bad input or unwritable output path, 70 a worker died (runs\n"
      "unrun), 73 a report could not be written, 130/143 interrupted (SIGINT/SIGTERM).");
  sub->callback([a, exit_code] { *exit_code = Sweep(*a); });
}

}  // namespace repartsim::tools
