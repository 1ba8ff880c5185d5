// `repartsim sweep SCENARIO|DIR... [--seeds A..B] [--jobs J] [--shard I/N] [--time-budget D]`:
// many seeds of many scenarios (a directory stands for every *.yaml under it, recursively;
// --tag keeps the scenarios carrying one of the tags). Each simulation is single-threaded;
// --jobs forks J worker PROCESSES (the model keeps process-wide assertion context, so
// processes, not threads), each taking every J-th run and streaming one JSON line per run back
// through a pipe. A worker that dies (OOM killer, internal error) is reported: its runs that
// never came back are `unrun` and the sweep exits 70, never a nondeterminism verdict.
// SIGINT/SIGTERM stop the sweep: the finished runs are reported (the rest `skipped`), the
// report says "interrupted", and --resume FILE continues from it.
// --shard I/N keeps every N-th run of the global (scenario, seed) list, starting at I, so N
// machines split a sweep and `repartsim merge` joins their --json reports; --shard env reads
// I from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) and N from REPARTSIM_SHARD_COUNT.
// Afterwards a determinism re-check re-runs a sample (the first seed and the fastest failing
// seed of each group, per scenario) in this process and compares trace hashes (exit 3).
// Output paths are checked before any run (exit 64); reports are written atomically.
// --html FILE writes the summary page and each failure group's timeline (html_sweep.h).
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "model/campaign/determinism.h"
#include "model/campaign/worker_pool.h"
#include "model/scenario/loader.h"
#include "model/sql/parser.h"
#include "sim/fingerprint.h"
#include "sim/trace.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/html_sweep.h"
#include "tools/repartsim/html_timeline.h"
#include "tools/repartsim/parse_u64.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/report_sweep.h"
#include "tools/repartsim/scenario_paths.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

// At most this many runs in one sweep (one shard): a bigger range is almost surely a typo,
// and the run list is held in memory. Split bigger sweeps with --shard.
constexpr uint64_t kRunsMax = 10'000'000;

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
  uint32_t recheck = 2;
  bool check_determinism = false;
};

struct Item {
  size_t scenario = 0;
  uint64_t seed = 0;
};

using Clock = std::chrono::steady_clock;

int64_t MsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void OnStopSignal(int signal) { g_stop_signal = signal; }

// SIGINT/SIGTERM set g_stop_signal while the sweep runs; restored on destruction.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction action {};
    action.sa_handler = OnStopSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  // In a forked worker: the default actions (the parent does the reporting).
  static void ResetInChild() {
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
  }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

struct Plan {
  std::vector<scenario::Scenario> scenarios;
  std::vector<Item> items;
  std::vector<bool> done;  // items already finished (--resume)
  scenario::RunConfig base;
  std::string rules;      // "a=off,b=on"
  int64_t budget_ms = 0;  // 0: none
};

SweepRun Placeholder(const Plan& plan, const Item& item, const char* outcome) {
  const scenario::Scenario& s = plan.scenarios[item.scenario];
  SweepRun run;
  run.path = s.path;
  run.profile = plan.base.profile.value_or(s.profile);
  run.rules = plan.rules;
  run.seed = item.seed;
  run.outcome = outcome;
  return run;
}

SweepRun RunItem(const Plan& plan, const Item& item, Clock::time_point start) {
  if (plan.budget_ms > 0 && MsSince(start) > plan.budget_ms) {
    return Placeholder(plan, item, "skipped");
  }
  scenario::RunConfig config = plan.base;
  config.seed = item.seed;
  const Clock::time_point t0 = Clock::now();
  auto report = scenario::RunScenario(plan.scenarios[item.scenario], config);  // validated
  return ToSweepRun(report.value(), plan.rules, MsSince(t0));
}

void Progress(bool quiet, size_t done, size_t total, size_t failing, Clock::time_point start) {
  if (quiet) return;
  // Not a terminal (CI logs): one line per tenth of the sweep instead of a live bar.
  if (!isatty(2) && done != total && (total < 10 || done % (total / 10) != 0)) return;
  const int width = 30;
  const int filled = total == 0 ? width : static_cast<int>(done * width / total);
  const int64_t ms = std::max<int64_t>(1, MsSince(start));
  if (isatty(2)) std::fputc('\r', stderr);
  std::fprintf(stderr, "[%.*s%*s] %zu/%zu runs, %zu failing, %.1f runs/s ", filled,
               "##############################", width - filled, "", done, total, failing,
               static_cast<double>(done) * 1000.0 / static_cast<double>(ms));
  if (done == total || !isatty(2)) std::fprintf(stderr, "\n");
}

struct Execution {
  std::vector<SweepRun> runs;  // in item order; `runs[i].path` empty: never reported
  std::vector<std::string> notes;
  int stop_signal = 0;
};

// Test hooks (tests/tools/sweep_cli_test.cc), read once per sweep:
//   REPARTSIM_TEST_KILL_WORKER=W     worker W (1-based) kills itself (SIGKILL) after one run;
//   REPARTSIM_TEST_SIGNAL_AFTER=N    the sweep sends itself SIGTERM after N finished runs.
uint64_t TestHook(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? 0 : std::strtoull(value, nullptr, 10);
}

// Runs every item not already done with `jobs` forked workers.
Execution Execute(const Plan& plan, std::vector<SweepRun> runs, uint32_t jobs, bool quiet) {
  const Clock::time_point start = Clock::now();
  Execution ex;
  ex.runs = std::move(runs);
  std::vector<size_t> todo;
  for (size_t i = 0; i < plan.items.size(); ++i) {
    if (!plan.done[i]) todo.push_back(i);
  }
  size_t done = 0;
  size_t failing = 0;
  const uint64_t kill_worker = TestHook("REPARTSIM_TEST_KILL_WORKER");
  const uint64_t signal_after = TestHook("REPARTSIM_TEST_SIGNAL_AFTER");
  auto account = [&](size_t index, SweepRun run) {
    failing += run.outcome != "pass" && run.outcome != "skipped";
    ex.runs[index] = std::move(run);
    Progress(quiet, ++done, todo.size(), failing, start);
    if (signal_after != 0 && done == signal_after) raise(SIGTERM);
  };
  campaign::PoolTasks tasks;
  tasks.count = todo.size();
  tasks.run = [&](size_t k, uint32_t) {
    return RunToJson(RunItem(plan, plan.items[todo[k]], start)).dump();
  };
  tasks.on_result = [&](size_t k, std::string line) {
    account(todo[k], RunFromJson(nlohmann::json::parse(line)));
  };
  tasks.should_stop = [] { return g_stop_signal != 0; };
  tasks.in_child = [] { StopSignals::ResetInChild(); };
  if (kill_worker != 0) {
    tasks.after_report = [kill_worker](size_t, uint32_t worker) {
      if (kill_worker == worker + 1) raise(SIGKILL);
    };
  }
  const campaign::PoolOutcome pool = campaign::RunPool(tasks, jobs, campaign::Assignment::kStriped);
  for (const campaign::WorkerDeath& death : pool.deaths) {
    if (pool.stopped) break;  // the workers were sent SIGTERM
    ex.notes.push_back(
        "sweep worker " + std::to_string(death.worker + 1) + " (pid " + std::to_string(death.pid) +
        ") died: " + campaign::DescribeWaitStatus(death.status) + "; " +
        std::to_string(death.unreported.size()) + " of its runs never reported are marked unrun");
  }
  const size_t workers = std::min<size_t>(jobs, todo.size());
  if (jobs > 1 && todo.size() > 1 && pool.workers_started < workers) {
    ex.notes.push_back("only " + std::to_string(pool.workers_started) + " of " +
                       std::to_string(jobs) + " sweep workers could be started" +
                       (pool.workers_started == 0 ? "; the runs ran in this process" : ""));
  }
  ex.stop_signal = g_stop_signal;
  for (size_t i : todo) {
    if (!ex.runs[i].path.empty()) continue;
    ex.runs[i] = Placeholder(plan, plan.items[i], ex.stop_signal != 0 ? "skipped" : "unrun");
  }
  if (ex.stop_signal != 0) {
    size_t finished = 0;
    for (const SweepRun& run : ex.runs)
      finished += run.outcome != "skipped" && run.outcome != "unrun";
    ex.notes.push_back(std::string("interrupted by ") + strsignal(ex.stop_signal) + " after " +
                       std::to_string(finished) + " of " + std::to_string(ex.runs.size()) +
                       " runs; the report holds the finished runs, the rest are skipped "
                       "(continue with --resume)");
  }
  return ex;
}

// Re-runs a sample in this process and compares trace hashes with the sweep's runs.
void Recheck(const Plan& plan, SweepReport& report, uint32_t per_scenario) {
  std::set<std::pair<std::string, uint64_t>> sample;
  std::map<std::string, uint32_t> taken;
  for (const SweepGroup& g : report.groups) {
    if (taken[g.path] < per_scenario && sample.insert({g.path, g.fastest_seed}).second) {
      ++taken[g.path];
    }
  }
  auto ran = [](const SweepRun& run) { return run.outcome != "skipped" && run.outcome != "unrun"; };
  for (const SweepRun& run : report.runs) {
    if (ran(run) && taken[run.path] < per_scenario && sample.insert({run.path, run.seed}).second) {
      ++taken[run.path];
    }
  }
  for (size_t i = 0; i < plan.items.size(); ++i) {
    if (g_stop_signal != 0) return;
    const scenario::Scenario& s = plan.scenarios[plan.items[i].scenario];
    const SweepRun& first = report.runs[i];
    if (!ran(first) || !sample.count({s.path, first.seed})) continue;
    scenario::RunConfig config = plan.base;
    config.seed = first.seed;
    auto again = scenario::RunScenario(s, config);
    ++report.determinism_checked;
    const std::string hash = Hex64(again.value().summary.trace_hash);
    if (hash != first.trace_hash) {
      // Name the first divergent event: two more runs keeping their traces.
      config.keep_trace = true;
      auto a = scenario::RunScenario(s, config);
      auto b = scenario::RunScenario(s, config);
      report.determinism_mismatches.push_back(
          s.path + " seed " + std::to_string(first.seed) + ": trace_hash " + first.trace_hash +
          " then " + hash + "; " +
          campaign::DivergenceReport(a.value().trace_lines, b.value().trace_lines));
    }
  }
}

// --shard "I/N", or "env": I from JOB_COMPLETION_INDEX, N from REPARTSIM_SHARD_COUNT.
sim::Result<std::pair<uint32_t, uint32_t>> ParseShard(const std::string& text,
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
  const size_t slash = spec.find('/');
  if (slash != std::string::npos) {
    auto i = ParseU64(std::string_view(spec).substr(0, slash));
    auto n = ParseU64(std::string_view(spec).substr(slash + 1));
    if (i && n && *n > 0 && *n <= UINT32_MAX && *i < *n) {
      return std::make_pair(static_cast<uint32_t>(*i), static_cast<uint32_t>(*n));
    }
  }
  return sim::Error{{"<command line>", 1, ArgumentColumn(args, text)},
                    "--shard expects I/N with 0 <= I < N (or env), got '" + spec + "'"};
}

std::string FileHash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  sim::Hasher h;
  h.Add(std::string_view(bytes));
  return Hex64(h.Finish());
}

sim::Result<SweepReport> LoadResume(const std::string& path, const std::vector<std::string>& args) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return sim::Error{{"<command line>", 1, ArgumentColumn(args, path)},
                      "--resume: cannot read " + path + ": " + std::strerror(errno)};
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return SweepReport::FromJson(text, path);
}

// The --html summary and, next to it, the timeline of each failure group's fastest failing
// seed (run again here, with the trace kept).
sim::Status WriteHtml(const SweepArgs& a, const Plan& plan, const SweepReport& report) {
  std::vector<std::string> timelines;
  for (size_t i = 0; i < report.groups.size(); ++i) {
    const SweepGroup& g = report.groups[i];
    const scenario::Scenario* s = nullptr;
    for (const scenario::Scenario& candidate : plan.scenarios) {
      if (candidate.path == g.path) s = &candidate;
    }
    timelines.emplace_back();
    if (s == nullptr) continue;
    scenario::RunConfig config = plan.base;
    config.seed = g.fastest_seed;
    config.profile = g.profile;
    config.keep_trace = true;
    auto run = scenario::RunScenario(*s, config);
    if (!run.ok()) continue;
    const std::string path = SweepTimelinePath(a.html, i);
    sim::Status st = WriteTextFile(path, RenderTimelineHtml(MakeTimelineRun(*s, run.value())));
    if (!st.ok()) return st;
    timelines.back() = path;
  }
  return WriteTextFile(a.html, RenderSweepHtml(report, timelines));
}

int WriteReports(const SweepArgs& a, const SweepReport& report, int verdict) {
  if (!a.json.empty()) {
    sim::Status st = WriteTextFile(a.json, report.ToJson().dump(1) + "\n");
    if (!st.ok()) return ReportWriteError(st.error(), verdict);
  }
  if (!a.junit.empty()) {
    sim::Status st = WriteTextFile(a.junit, SweepJunit(report));
    if (!st.ok()) return ReportWriteError(st.error(), verdict);
  }
  return verdict;
}

int Sweep(const SweepArgs& a) {
  const Clock::time_point start = Clock::now();
  const std::vector<std::string> args = CommandLineArgs();
  if (a.scenarios.empty()) {
    return ReportInputError({{"<command line>", 1, 1}, "sweep needs at least one SCENARIO"});
  }
  auto rules = ParseRuleFlags(a.rules, args);
  if (!rules.ok()) return ReportInputError(rules.error());
  Plan plan;
  if (!a.profile.empty()) plan.base.profile = a.profile;
  plan.base.rules = rules.value();
  for (const auto& [name, on] : rules.value()) {
    plan.rules += (plan.rules.empty() ? "" : ",") + name + (on ? "=on" : "=off");
  }
  sim::Status valid = ValidateOverrides(plan.base.profile, plan.base.rules, args);
  if (!valid.ok()) return ReportInputError(valid.error());
  auto shard = ParseShard(a.shard, args);
  if (!shard.ok()) return ReportInputError(shard.error());
  const auto [shard_index, shard_count] = shard.value();
  if (!a.time_budget.empty()) {
    auto ms = model::sql::ParseDurationMs(a.time_budget);
    if (!ms.ok()) {
      return ReportInputError({{"<command line>", 1, ArgumentColumn(args, a.time_budget)},
                               "--time-budget: " + ms.error().message});
    }
    plan.budget_ms = ms.value();
  }
  std::optional<std::pair<uint64_t, uint64_t>> range;
  if (!a.seeds.empty()) {
    auto r = ParseRange(a.seeds, args);
    if (!r.ok()) return ReportInputError(r.error());
    range = r.value();
  }
  for (const std::string* out : {&a.json, &a.junit, &a.html}) {
    if (out->empty()) continue;
    sim::Status st = CheckOutputPath(*out, args);
    if (!st.ok()) return ReportInputError(st.error());
  }
  auto paths = ExpandScenarioPaths(a.scenarios, args);
  if (!paths.ok()) return ReportInputError(paths.error());
  SweepReport report;
  std::tie(report.binary_version, report.binary_id) = BinaryIdentity();
  report.seeds = range ? a.seeds : "per-scenario";
  report.shard = std::to_string(shard_index) + "/" + std::to_string(shard_count);
  report.complete = shard_count == 1;
  report.rules = plan.rules;
  report.raw = a.raw;
  uint64_t position = 0;  // of the scenario's first seed in the global (scenario, seed) list
  for (const std::string& path : paths.value()) {
    auto s = scenario::LoadScenarioFile(path);
    if (!s.ok()) return ReportInputError(s.error());
    if (!a.tags.empty() && std::none_of(a.tags.begin(), a.tags.end(), [&](const std::string& t) {
          return std::find(s.value().tags.begin(), s.value().tags.end(), t) != s.value().tags.end();
        })) {
      continue;
    }
    const std::string profile = plan.base.profile.value_or(s.value().profile);
    auto expect =
        s.value().ExpectationFor(profile, s.value().OverridesFor(profile, plan.base.rules));
    SweepScenario row;
    row.path = path;
    row.name = s.value().name;
    row.profile = profile;
    row.rules = plan.rules;
    row.hash = FileHash(path);
    row.expect = expect ? (expect->pass ? "pass" : "violation: " + expect->invariant) : "pass";
    if (expect) row.tolerate = expect->tolerate;
    if (report.FindScenario(row.Key()) != nullptr) continue;  // named twice
    report.scenarios.push_back(row);
    const uint64_t first = range ? range->first : s.value().seed_first;
    const uint64_t last = range ? range->second : s.value().seed_last;
    // Seeds first + k with (position + k) % shard_count == shard_index, without a loop over
    // every seed of the range (which may be huge).
    const uint64_t span = last - first;  // seeds - 1
    const uint64_t k0 = (shard_index + shard_count - position % shard_count) % shard_count;
    const uint64_t mine = k0 > span ? 0 : (span - k0) / shard_count + 1;
    if (mine > kRunsMax - plan.items.size()) {
      const std::string culprit = range ? a.seeds : path;
      return ReportInputError({{"<command line>", 1, ArgumentColumn(args, culprit)},
                               "sweep of more than " + std::to_string(kRunsMax) + " runs (" + path +
                                   " seeds " + std::to_string(first) + ".." + std::to_string(last) +
                                   (shard_count > 1 ? " in shard " + report.shard : "") +
                                   "); use a smaller --seeds range or split it with --shard"});
    }
    for (uint64_t k = k0; k0 <= span && k <= span; k += shard_count) {
      plan.items.push_back({plan.scenarios.size(), first + k});
      if (span - k < shard_count) break;
    }
    position = (position + span % shard_count + 1) % shard_count;
    plan.scenarios.push_back(std::move(s).value());
  }
  if (plan.scenarios.empty()) {
    return ReportInputError(
        {{"<command line>", 1, 1}, "no scenario carries any of the --tag tags"});
  }
  report.sweep_id = report.SweepId();
  std::vector<SweepRun> runs(plan.items.size());
  plan.done.assign(plan.items.size(), false);
  if (!a.resume.empty()) {
    auto previous = LoadResume(a.resume, args);
    if (!previous.ok()) return ReportInputError(previous.error());
    if (previous.value().sweep_id != report.sweep_id) {
      return ReportInputError(
          {{"<command line>", 1, ArgumentColumn(args, a.resume)},
           "--resume: " + a.resume + " is a report of another sweep (sweep_id " +
               previous.value().sweep_id + ", this one " + report.sweep_id +
               "): same binary, scenarios, --seeds, --shard, --profile, --rule and --raw needed"});
    }
    std::map<std::pair<std::string, uint64_t>, SweepRun> finished;
    for (SweepRun& run : previous.value().runs) {
      if (run.outcome != "skipped" && run.outcome != "unrun") {
        finished[{run.Key(), run.seed}] = std::move(run);
      }
    }
    for (size_t i = 0; i < plan.items.size(); ++i) {
      SweepRun key = Placeholder(plan, plan.items[i], "");
      auto it = finished.find({key.Key(), key.seed});
      if (it == finished.end()) continue;
      runs[i] = std::move(it->second);
      plan.done[i] = true;
    }
    size_t resumed = static_cast<size_t>(std::count(plan.done.begin(), plan.done.end(), true));
    report.notes.push_back("resumed from " + a.resume + ": " + std::to_string(resumed) +
                           " finished runs kept, " + std::to_string(plan.items.size() - resumed) +
                           " to run");
  }
  StopSignals signals;  // until the reports are written
  Execution ex = Execute(plan, std::move(runs), a.jobs, a.quiet);
  report.runs = std::move(ex.runs);
  report.notes.insert(report.notes.end(), ex.notes.begin(), ex.notes.end());
  report.interrupted = ex.stop_signal != 0;
  report.Aggregate();
  if (!report.interrupted) Recheck(plan, report, a.check_determinism ? UINT32_MAX : a.recheck);
  report.interrupted = report.interrupted || g_stop_signal != 0;
  report.wall_ms = MsSince(start);
  // A report on stdout keeps stdout for itself: the table goes to stderr.
  const bool report_on_stdout = a.json == "-" || a.junit == "-";
  PrintSweepSummary(report, report_on_stdout ? stderr : stdout);
  int verdict = report.ExitCode();
  if (verdict == kExitPass && report.interrupted) {
    verdict = 128 + (ex.stop_signal != 0 ? ex.stop_signal : static_cast<int>(g_stop_signal));
  }
  if (!a.html.empty()) {
    sim::Status st = WriteHtml(a, plan, report);
    if (!st.ok()) return ReportWriteError(st.error(), verdict);
  }
  return WriteReports(a, report, verdict);
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
      ->check(CLI::Range(1, 256));
  sub->add_option("--shard", a->shard,
                  "Run shard I of N of the (scenario, seed) list: I/N, or env "
                  "(JOB_COMPLETION_INDEX / REPARTSIM_SHARD_COUNT)");
  sub->add_option("--time-budget", a->time_budget,
                  "Stop starting runs after this wall time (e.g. 90s, 5m); the rest are skipped");
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
                  "Seeds per scenario re-run for the determinism check (default 2)");
  sub->add_flag("--raw", a->raw, "Ignore expectations: any violation fails the sweep");
  sub->add_flag("--quiet,-q", a->quiet, "No progress bar");
  sub->footer(
      "A scenario meets its expectation when no run reports an invariant it does not allow\n"
      "(its `violation:`, its `tolerate:` list, READ-ANOMALY) and, for `violation: X`, some run\n"
      "reports X (a shard of several leaves that to merge). Exit codes: 0 all met, 1 a safety\n"
      "violation, unexpected invariant or expected one not reproduced, 2 only liveness,\n"
      "3 nondeterminism, 64 bad input or unwritable output path, 70 a worker died (runs\n"
      "unrun), 73 a report could not be written, 130/143 interrupted (SIGINT/SIGTERM).");
  sub->callback([a, exit_code] { *exit_code = Sweep(*a); });
}

}  // namespace repartsim::tools
