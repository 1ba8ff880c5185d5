// `repartsim sweep SCENARIO... [--seeds A..B] [--jobs J] [--shard I/N] [--time-budget D]`:
// many seeds of many scenarios. Each simulation is single-threaded; --jobs forks J worker
// PROCESSES (the model keeps process-wide assertion context, so processes, not threads),
// each taking every J-th run and streaming one JSON line per run back through a pipe.
// --shard I/N keeps every N-th run of the global (scenario, seed) list, starting at I, so N
// machines split a sweep and `repartsim merge` joins their --json reports. Afterwards a
// determinism re-check re-runs a sample (the first seed and the fastest failing seed of each
// group, per scenario) in this process and compares trace hashes (exit 3 on mismatch).
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "model/scenario/loader.h"
#include "model/sql/parser.h"
#include "sim/trace.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/report_sweep.h"
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
  std::string profile;
  std::vector<std::string> rules;
  bool raw = false;
  bool quiet = false;
  uint32_t recheck = 2;
};

struct Item {
  size_t scenario = 0;
  uint64_t seed = 0;
};

using Clock = std::chrono::steady_clock;

int64_t MsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

struct Plan {
  std::vector<scenario::Scenario> scenarios;
  std::vector<Item> items;
  scenario::RunConfig base;
  int64_t budget_ms = 0;  // 0: none
};

SweepRun RunItem(const Plan& plan, const Item& item, Clock::time_point start) {
  const scenario::Scenario& s = plan.scenarios[item.scenario];
  if (plan.budget_ms > 0 && MsSince(start) > plan.budget_ms) {
    SweepRun skipped;
    skipped.path = s.path;
    skipped.seed = item.seed;
    skipped.outcome = "skipped";
    return skipped;
  }
  scenario::RunConfig config = plan.base;
  config.seed = item.seed;
  const Clock::time_point t0 = Clock::now();
  auto report = scenario::RunScenario(s, config);  // overrides were validated up front
  return ToSweepRun(report.value(), MsSince(t0));
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

// Runs every item with `jobs` forked workers; returns the runs in item order.
std::vector<SweepRun> Execute(const Plan& plan, uint32_t jobs, bool quiet) {
  const Clock::time_point start = Clock::now();
  std::vector<SweepRun> runs(plan.items.size());
  size_t done = 0;
  size_t failing = 0;
  auto account = [&](size_t index, SweepRun run) {
    failing += run.outcome != "pass" && run.outcome != "skipped";
    runs[index] = std::move(run);
    Progress(quiet, ++done, runs.size(), failing, start);
  };
  if (jobs <= 1 || plan.items.size() <= 1) {
    for (size_t i = 0; i < plan.items.size(); ++i) account(i, RunItem(plan, plan.items[i], start));
    return runs;
  }
  std::vector<int> fds;
  std::vector<pid_t> pids;
  for (uint32_t w = 0; w < jobs; ++w) {
    int fd[2];
    if (pipe(fd) != 0) break;
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
      close(fd[0]);
      for (size_t i = w; i < plan.items.size(); i += jobs) {
        nlohmann::json line = RunToJson(RunItem(plan, plan.items[i], start));
        line["index"] = i;
        const std::string text = line.dump() + "\n";
        for (size_t off = 0; off < text.size();) {
          const ssize_t n = write(fd[1], text.data() + off, text.size() - off);
          if (n <= 0) _exit(kExitInternal);
          off += static_cast<size_t>(n);
        }
      }
      close(fd[1]);
      _exit(0);
    }
    close(fd[1]);
    fds.push_back(fd[0]);
    pids.push_back(pid);
  }
  std::vector<std::string> buffers(fds.size());
  std::vector<bool> open(fds.size(), true);
  size_t open_count = fds.size();
  while (open_count > 0) {
    std::vector<pollfd> polls;
    std::vector<size_t> which;
    for (size_t i = 0; i < fds.size(); ++i) {
      if (open[i]) {
        polls.push_back({fds[i], POLLIN, 0});
        which.push_back(i);
      }
    }
    if (poll(polls.data(), polls.size(), -1) < 0) break;
    for (size_t k = 0; k < polls.size(); ++k) {
      if (polls[k].revents == 0) continue;
      const size_t i = which[k];
      char buf[65536];
      const ssize_t n = read(fds[i], buf, sizeof(buf));
      if (n <= 0) {
        open[i] = false;
        --open_count;
        close(fds[i]);
        continue;
      }
      buffers[i].append(buf, static_cast<size_t>(n));
      size_t nl;
      while ((nl = buffers[i].find('\n')) != std::string::npos) {
        nlohmann::json line = nlohmann::json::parse(buffers[i].substr(0, nl));
        buffers[i].erase(0, nl + 1);
        account(line.at("index").get<size_t>(), RunFromJson(line));
      }
    }
  }
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
  }
  return runs;
}

// Re-runs a sample in this process and compares trace hashes with the sweep's runs.
void Recheck(const Plan& plan, SweepReport& report, uint32_t per_scenario) {
  std::set<std::pair<std::string, uint64_t>> sample;
  std::map<std::string, uint32_t> taken;
  for (const SweepGroup& g : report.groups) {
    if (taken[g.path] < per_scenario) {
      sample.insert({g.path, g.fastest_seed});
      ++taken[g.path];
    }
  }
  for (const SweepRun& run : report.runs) {
    if (run.outcome != "skipped" && taken[run.path] < per_scenario &&
        sample.insert({run.path, run.seed}).second) {
      ++taken[run.path];
    }
  }
  for (size_t i = 0; i < plan.items.size(); ++i) {
    const scenario::Scenario& s = plan.scenarios[plan.items[i].scenario];
    const SweepRun& first = report.runs[i];
    if (!sample.count({s.path, first.seed}) || first.outcome == "skipped") continue;
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
      auto divergence = sim::FirstDivergence(a.value().trace_lines, b.value().trace_lines);
      report.determinism_mismatches.push_back(
          s.path + " seed " + std::to_string(first.seed) + ": trace_hash " + first.trace_hash +
          " then " + hash + (divergence ? "; " + divergence->ToString() : ""));
    }
  }
}

sim::Result<std::pair<uint64_t, uint64_t>> ParseRange(const std::string& text,
                                                     const std::vector<std::string>& args) {
  const size_t dots = text.find("..");
  try {
    if (dots != std::string::npos) {
      size_t end_a = 0, end_b = 0;
      const uint64_t a = std::stoull(text.substr(0, dots), &end_a);
      const uint64_t b = std::stoull(text.substr(dots + 2), &end_b);
      if (end_a == dots && end_b == text.size() - dots - 2 && a <= b) return std::make_pair(a, b);
    }
  } catch (const std::exception&) {
  }
  return sim::Error{{"<command line>", 1, ArgumentColumn(args, text)},
                    "--seeds expects A..B with A <= B, got '" + text + "'"};
}

int Sweep(const SweepArgs& a) {
  const std::vector<std::string> args = CommandLineArgs();
  if (a.scenarios.empty()) {
    return ReportInputError({{"<command line>", 1, 1}, "sweep needs at least one SCENARIO"});
  }
  auto rules = ParseRuleFlags(a.rules, args);
  if (!rules.ok()) return ReportInputError(rules.error());
  Plan plan;
  if (!a.profile.empty()) plan.base.profile = a.profile;
  plan.base.rules = rules.value();
  sim::Status valid = ValidateOverrides(plan.base.profile, plan.base.rules, args);
  if (!valid.ok()) return ReportInputError(valid.error());
  uint32_t shard_index = 0, shard_count = 1;
  if (std::sscanf(a.shard.c_str(), "%u/%u", &shard_index, &shard_count) != 2 ||
      shard_count == 0 || shard_index >= shard_count) {
    return ReportInputError({{"<command line>", 1, ArgumentColumn(args, a.shard)},
                             "--shard expects I/N with 0 <= I < N, got '" + a.shard + "'"});
  }
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
  SweepReport report;
  report.seeds = range ? a.seeds : "per-scenario";
  report.shard = a.shard;
  report.raw = a.raw;
  size_t position = 0;
  for (const std::string& path : a.scenarios) {
    auto s = scenario::LoadScenarioFile(path);
    if (!s.ok()) return ReportInputError(s.error());
    const std::string profile = plan.base.profile.value_or(s.value().profile);
    auto expect = s.value().ExpectationFor(profile);
    report.scenarios.push_back({path, s.value().name, profile, expect ? expect->ToString() : "pass"});
    const uint64_t first = range ? range->first : s.value().seed_first;
    const uint64_t last = range ? range->second : s.value().seed_last;
    for (uint64_t seed = first; seed <= last; ++seed, ++position) {
      if (position % shard_count == shard_index) plan.items.push_back({plan.scenarios.size(), seed});
      if (seed == UINT64_MAX) break;
    }
    plan.scenarios.push_back(std::move(s).value());
  }
  report.runs = Execute(plan, a.jobs, a.quiet);
  report.Aggregate();
  Recheck(plan, report, a.recheck);
  report.PrintSummary(stdout);
  if (!a.json.empty()) {
    sim::Status st = WriteTextFile(a.json, report.ToJson().dump(1) + "\n");
    if (!st.ok()) return ReportInputError(st.error());
  }
  if (!a.junit.empty()) {
    sim::Status st = WriteTextFile(a.junit, report.ToJunit());
    if (!st.ok()) return ReportInputError(st.error());
  }
  return report.ExitCode();
}

}  // namespace

void AddSweepVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<SweepArgs>();
  CLI::App* sub = app.add_subcommand(
      "sweep", "Run many seeds of scenarios; group failures; JSON/JUnit reports");
  sub->add_option("scenarios", a->scenarios, "Scenario YAML files");
  sub->add_option("--seeds", a->seeds, "Seed range A..B (default: each scenario's `seeds`)");
  sub->add_option("--jobs,-j", a->jobs, "Parallel worker processes (default 1)")
      ->check(CLI::Range(1, 256));
  sub->add_option("--shard", a->shard, "Run shard I of N of the (scenario, seed) list: I/N");
  sub->add_option("--time-budget", a->time_budget,
                  "Stop starting runs after this wall time (e.g. 90s, 5m); the rest are skipped");
  sub->add_option("--junit", a->junit, "Write a JUnit XML report to FILE");
  sub->add_option("--json", a->json, "Write the JSON sweep report (mergeable) to FILE");
  sub->add_option("--profile", a->profile, "Protocol profile for every scenario");
  sub->add_option("--rule", a->rules, "Override a rule switch: name=on|off (repeatable)");
  sub->add_option("--recheck", a->recheck,
                  "Seeds per scenario re-run for the determinism check (default 2)");
  sub->add_flag("--raw", a->raw, "Ignore expectations: any violation fails the sweep");
  sub->add_flag("--quiet,-q", a->quiet, "No progress bar");
  sub->footer(
      "A scenario meets its expectation when every run passes (expect: pass) or some run\n"
      "reports the expected invariant (expect: violation). Exit codes: 0 all met,\n"
      "1 a safety violation or an expected one not reproduced, 2 liveness, 3 nondeterminism,\n"
      "64 bad input.");
  sub->callback([a, exit_code] { *exit_code = Sweep(*a); });
}

}  // namespace repartsim::tools
