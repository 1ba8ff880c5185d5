#include "checker/campaign/sweep_plan.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "checker/campaign/determinism.h"
#include "checker/campaign/exit_code.h"
#include "checker/campaign/stop_signals.h"
#include "checker/campaign/worker_pool.h"
#include "sim/assert.h"
#include "sim/fingerprint.h"
#include "sim/json_text.h"
#include "sim/parse_u64.h"

namespace repartsim::campaign {

std::string Shard::Text() const { return std::to_string(index) + "/" + std::to_string(count); }

std::optional<Shard> ParseShard(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::optional<uint64_t> index = sim::ParseU64(text.substr(0, slash));
  const std::optional<uint64_t> count = sim::ParseU64(text.substr(slash + 1));
  if (!index || !count || *count == 0 || *count > UINT32_MAX || *index >= *count) {
    return std::nullopt;
  }
  return Shard{static_cast<uint32_t>(*index), static_cast<uint32_t>(*count)};
}

std::string RulesText(const std::vector<std::pair<std::string, bool>>& rules) {
  std::string text;
  for (const auto& [name, on] : rules) {
    text += (text.empty() ? "" : ",") + name + (on ? "=on" : "=off");
  }
  return text;
}

SweepPlan::SweepPlan(run::RunConfig base, Shard shard,
                     std::optional<std::pair<uint64_t, uint64_t>> seeds)
    : base_(std::move(base)), rules_(RulesText(base_.rules)), shard_(shard), seeds_(seeds) {
  REPARTSIM_ASSERT(shard_.count > 0 && shard_.index < shard_.count);
  REPARTSIM_ASSERT(!seeds_ || seeds_->first <= seeds_->second);
}

sim::Status SweepPlan::Add(scenario::Scenario s, const std::string& file_hash,
                           SweepReport& report) {
  REPARTSIM_ASSERT(items_.size() <= kSweepRunsMax);
  REPARTSIM_ASSERT(done_.empty());  // every scenario is added before Resume
  const std::string profile = base_.profile.value_or(s.profile);
  const std::optional<scenario::Expectation> expect =
      s.ExpectationFor(profile, s.OverridesFor(profile, base_.rules));
  SweepScenario row;
  row.path = s.path;
  row.name = s.name;
  row.profile = profile;
  row.rules = rules_;
  row.hash = file_hash;
  row.expect = expect ? (expect->pass ? "pass" : "violation: " + expect->invariant) : "pass";
  if (expect) row.tolerate = expect->tolerate;
  if (report.FindScenario(row.Key()) != nullptr) return sim::Ok{};  // named twice
  const uint64_t first = seeds_ ? seeds_->first : s.seed_first;
  const uint64_t last = seeds_ ? seeds_->second : s.seed_last;
  REPARTSIM_ASSERT(first <= last);
  // Seeds first + k with (position + k) % count == index, without a loop over every seed of
  // the range (which may be huge).
  const uint64_t count = shard_.count;
  const uint64_t span = last - first;  // seeds - 1
  const uint64_t k0 = (shard_.index + count - position_ % count) % count;
  // This shard's share is (span - k0) / count + 1 seeds, which overflows for the whole u64
  // range in one shard: compare the quotient instead.
  const uint64_t room = kSweepRunsMax - items_.size();
  if (k0 <= span && (span - k0) / count >= room) {
    return sim::Error{{},
                      "sweep of more than " + std::to_string(kSweepRunsMax) + " runs (" + s.path +
                          " seeds " + std::to_string(first) + ".." + std::to_string(last) +
                          (count > 1 ? " in shard " + shard_.Text() : "") +
                          "); use a smaller --seeds range or split it with --shard"};
  }
  rows_.push_back(row);
  report.scenarios.push_back(std::move(row));
  for (uint64_t k = k0; k0 <= span && k <= span; k += count) {
    items_.push_back({scenarios_.size(), first + k});
    if (span - k < count) break;
  }
  position_ = (position_ + span % count + 1) % count;
  scenarios_.push_back(std::move(s));
  REPARTSIM_ASSERT(rows_.size() == scenarios_.size());
  return sim::Ok{};
}

SweepRun SweepPlan::Placeholder(size_t item, const char* outcome) const {
  REPARTSIM_ASSERT(item < items_.size());
  const scenario::Scenario& s = scenarios_[items_[item].scenario];
  SweepRun run;
  run.path = s.path;
  run.profile = base_.profile.value_or(s.profile);
  run.rules = rules_;
  run.seed = items_[item].seed;
  run.outcome = outcome;
  return run;
}

sim::Result<std::vector<SweepRun>> SweepPlan::Resume(const SweepReport& previous,
                                                     const SweepReport& report,
                                                     const std::string& name, std::string* note) {
  REPARTSIM_ASSERT(note != nullptr);
  REPARTSIM_ASSERT(!report.sweep_id.empty());
  if (previous.sweep_id != report.sweep_id) {
    return sim::Error{{},
                      name + " is a report of another sweep (sweep_id " + previous.sweep_id +
                          ", this one " + report.sweep_id +
                          "): same binary, scenarios, --seeds, --shard, --profile, --rule and "
                          "--raw needed"};
  }
  std::map<std::pair<std::string, uint64_t>, const SweepRun*> finished;
  for (const SweepRun& run : previous.runs) {
    if (run.outcome != "skipped" && run.outcome != "unrun") finished[{run.Key(), run.seed}] = &run;
  }
  std::vector<SweepRun> runs(items_.size());
  done_.assign(items_.size(), false);
  size_t resumed = 0;
  for (size_t i = 0; i < items_.size(); ++i) {
    // The report holds each path as JsonText wrote it (U+FFFD for a non-UTF-8 byte).
    SweepRun key = Placeholder(i, "");
    const std::string path = key.path;
    key.path = sim::JsonSafe(path);
    auto it = finished.find({key.Key(), key.seed});
    if (it == finished.end()) continue;
    runs[i] = *it->second;
    runs[i].path = path;
    done_[i] = true;
    ++resumed;
  }
  *note = "resumed from " + name + ": " + std::to_string(resumed) + " finished runs kept, " +
          std::to_string(items_.size() - resumed) + " to run";
  return runs;
}

size_t FinishedRuns(const std::vector<SweepRun>& runs) {
  return static_cast<size_t>(std::count_if(runs.begin(), runs.end(), [](const SweepRun& run) {
    return run.outcome != "skipped" && run.outcome != "unrun";
  }));
}

namespace {

SweepRun RunItem(const SweepPlan& plan, size_t item, const SweepHooks& hooks) {
  if (plan.budget_ms > 0 && hooks.now_ms() > plan.budget_ms) {
    return plan.Placeholder(item, "skipped");
  }
  const SweepItem& it = plan.items()[item];
  run::RunConfig config = plan.base();
  config.seed = it.seed;
  if (hooks.before_run) hooks.before_run(it.seed);
  const int64_t t0 = hooks.now_ms();
  // Every scenario was loaded and validated, and the overrides checked, before the plan.
  auto report = run::RunScenario(plan.scenarios()[it.scenario], config);
  REPARTSIM_ASSERT_MSG(report.ok(), "a validated scenario failed to run");
  return ToSweepRun(report.value(), plan.rules(), hooks.now_ms() - t0);
}

// The record of item `item`, whose worker died running it (`how`: "exit code 70").
SweepRun InternalErrorRun(const SweepPlan& plan, size_t item, const std::string& how) {
  SweepRun run = plan.Placeholder(item, "internal-error");
  run.invariants = {kInternalErrorName};
  run.failures = {{kInternalErrorName, how,
                   "the run ended in an internal error (" + how +
                       "): a broken invariant of the simulator or the model, not a finding"}};
  return run;
}

// The items still to run, seed-major: the first remaining seed of every scenario, then the
// second, and so on, so a time budget (or an interruption) leaves every scenario sampled, not
// the first scenarios run in full and the last ones skipped. Items stay where they are in the
// report; only the order they run in changes.
std::vector<size_t> SeedMajor(const SweepPlan& plan) {
  std::vector<std::vector<size_t>> by_scenario(plan.scenarios().size());
  for (size_t i = 0; i < plan.items().size(); ++i) {
    if (plan.done().empty() || !plan.done()[i]) {
      by_scenario[plan.items()[i].scenario].push_back(i);
    }
  }
  std::vector<size_t> order, active;  // active: scenarios with seeds left
  for (size_t s = 0; s < by_scenario.size(); ++s) {
    if (!by_scenario[s].empty()) active.push_back(s);
  }
  for (size_t round = 0; !active.empty(); ++round) {
    size_t kept = 0;
    for (const size_t s : active) {
      order.push_back(by_scenario[s][round]);
      if (round + 1 < by_scenario[s].size()) active[kept++] = s;
    }
    active.resize(kept);
  }
  REPARTSIM_ASSERT(order.size() <= plan.items().size());
  return order;
}

}  // namespace

SweepExecution ExecuteSweep(const SweepPlan& plan, std::vector<SweepRun> runs, uint32_t jobs,
                            const SweepHooks& hooks) {
  REPARTSIM_ASSERT(hooks.now_ms != nullptr);
  const size_t items = plan.items().size();
  if (runs.empty()) runs.resize(items);
  REPARTSIM_ASSERT(runs.size() == items);
  SweepExecution ex;
  ex.runs = std::move(runs);
  const std::vector<size_t> todo = SeedMajor(plan);
  size_t finished = 0;
  size_t skipped = 0;  // by the time budget: neither done nor to do, so not in the progress
  size_t unexpected = 0;
  PoolTasks tasks;
  tasks.count = todo.size();
  tasks.run = [&](size_t k, uint32_t) {
    return sim::JsonText(RunToJson(RunItem(plan, todo[k], hooks)));
  };
  tasks.on_result = [&](size_t k, std::string line) {
    SweepRun run = RunFromJson(nlohmann::json::parse(line));
    // The line's path went through JsonText (a non-UTF-8 byte became U+FFFD); the plan holds
    // the file's own name, which the rows and the re-check look the run up by.
    run.path = plan.scenarios()[plan.items()[todo[k]].scenario].path;
    const SweepScenario& row = plan.rows()[plan.items()[todo[k]].scenario];
    const bool skip = run.outcome == "skipped";
    unexpected += skip ? 0 : RunUnexpected(run, &row, plan.raw);
    ex.runs[todo[k]] = std::move(run);
    skipped += skip;
    finished += !skip;
    if (hooks.progress && (!skip || finished == todo.size() - skipped)) {
      hooks.progress(finished, todo.size() - skipped, unexpected);
    }
  };
  tasks.should_stop = hooks.should_stop;
  tasks.in_child = hooks.in_child;
  tasks.after_report = hooks.after_report;
  const PoolOutcome pool = RunPool(tasks, jobs, Assignment::kStriped);
  ex.stopped = pool.stopped || (hooks.should_stop && hooks.should_stop());
  for (const WorkerDeath& death : pool.deaths) {
    if (death.culprit.has_value()) {
      const size_t item = todo[*death.culprit];
      ex.runs[item] = InternalErrorRun(plan, item, DescribeWaitStatus(death.status));
      ex.notes.push_back("sweep worker " + std::to_string(death.worker + 1) + " (pid " +
                         std::to_string(death.pid) + ") died running " + ex.runs[item].path +
                         " seed " + std::to_string(ex.runs[item].seed) + ": " +
                         DescribeWaitStatus(death.status) +
                         "; the run is an internal-error row, its other runs went on");
      continue;
    }
    if (pool.stopped) continue;  // the workers were sent SIGTERM
    ex.notes.push_back("sweep worker " + std::to_string(death.worker + 1) + " (pid " +
                       std::to_string(death.pid) + ") died: " + DescribeWaitStatus(death.status) +
                       "; " + std::to_string(death.unreported.size()) +
                       " of its runs never reported are marked unrun");
  }
  const size_t workers = std::min<size_t>(jobs, todo.size());
  if (jobs > 1 && todo.size() > 1 && pool.workers_started < workers) {
    ex.notes.push_back("only " + std::to_string(pool.workers_started) + " of " +
                       std::to_string(jobs) + " sweep workers could be started" +
                       (pool.workers_started == 0 ? "; the runs ran in this process" : ""));
  }
  // A run that never reported is unrun, whether a worker died or the sweep was stopped:
  // an interrupted shard must not merge green (`skipped` is for --time-budget only).
  for (size_t i : todo) {
    if (!ex.runs[i].path.empty()) continue;
    ex.runs[i] = plan.Placeholder(i, "unrun");
  }
  return ex;
}

void RecheckDeterminism(const SweepPlan& plan, SweepReport& report, uint32_t per_scenario,
                        const std::function<bool()>& should_stop) {
  REPARTSIM_ASSERT(report.runs.size() == plan.items().size());
  std::set<std::pair<std::string, uint64_t>> sample;
  std::map<std::string, uint32_t> taken;
  for (const SweepGroup& g : report.groups) {
    if (taken[g.path] < per_scenario && sample.insert({g.path, g.fastest_seed}).second) {
      ++taken[g.path];
    }
  }
  // An internal-error run is not re-run here: it would end this process as it ended its worker.
  auto ran = [](const SweepRun& run) {
    return run.outcome != "skipped" && run.outcome != "unrun" && run.outcome != "internal-error";
  };
  for (const SweepRun& run : report.runs) {
    if (ran(run) && taken[run.path] < per_scenario && sample.insert({run.path, run.seed}).second) {
      ++taken[run.path];
    }
  }
  for (size_t i = 0; i < plan.items().size(); ++i) {
    if (should_stop && should_stop()) return;
    const scenario::Scenario& s = plan.scenarios()[plan.items()[i].scenario];
    const SweepRun& first = report.runs[i];
    if (!ran(first) || !sample.count({s.path, first.seed})) continue;
    run::RunConfig config = plan.base();
    config.seed = first.seed;
    auto again = run::RunScenario(s, config);
    REPARTSIM_ASSERT_MSG(again.ok(), "a validated scenario failed to run");
    ++report.determinism_checked;
    const std::string hash = sim::Hex64(again.value().summary.trace_hash);
    if (hash == first.trace_hash) continue;
    // Name the first divergent event: two more runs keeping their traces.
    config.keep_trace = true;
    auto a = run::RunScenario(s, config);
    auto b = run::RunScenario(s, config);
    report.determinism_mismatches.push_back(
        s.path + " seed " + std::to_string(first.seed) + ": trace_hash " + first.trace_hash +
        " then " + hash + "; " + DivergenceReport(a.value().trace_lines, b.value().trace_lines));
  }
}

int FinishSweep(const SweepPlan& plan, SweepExecution ex, uint32_t recheck, SweepReport& report) {
  REPARTSIM_ASSERT(ex.runs.size() == plan.items().size());
  const int stop_signal = StopSignals::Received();
  report.runs = std::move(ex.runs);
  if (ex.stopped) {
    ex.notes.push_back(std::string("interrupted by ") +
                       (stop_signal != 0 ? strsignal(stop_signal) : "a stop request") + " after " +
                       std::to_string(FinishedRuns(report.runs)) + " of " +
                       std::to_string(report.runs.size()) +
                       " runs; the report holds the finished runs, the rest are unrun "
                       "(continue with --resume)");
  }
  report.notes.insert(report.notes.end(), ex.notes.begin(), ex.notes.end());
  report.interrupted = ex.stopped;
  // An interrupted report is a part of its sweep, as one shard is: not complete.
  report.complete = report.complete && !ex.stopped;
  report.Aggregate();
  if (!report.interrupted) {
    RecheckDeterminism(plan, report, recheck, [] { return StopSignals::Received() != 0; });
  }
  report.interrupted = report.interrupted || StopSignals::Received() != 0;
  int verdict = report.ExitCode();
  // Its unfinished runs are unrun (70 in the report); the process says why it stopped.
  const int signal = stop_signal != 0 ? stop_signal : StopSignals::Received();
  if ((verdict == kExitPass || verdict == kExitInternal) && report.interrupted && signal != 0) {
    verdict = 128 + signal;
  }
  return verdict;
}

}  // namespace repartsim::campaign
