// The plan and execution of a sweep (`repartsim sweep`): which (scenario, seed) runs a sweep,
// or one shard of it, holds; which of them an earlier, interrupted report already finished
// (resume); running the rest in worker processes (worker_pool.h); and the determinism re-check
// of a sample afterwards.
//
// Shards. The global run list is every scenario's seeds in order, scenario after scenario.
// Shard I of N keeps the runs at positions p with p % N == I, so N machines split a sweep and
// merge joins their reports; a scenario's share of a shard is computed without visiting every
// seed of its range (a range may be huge), and at most kSweepRunsMax runs fit one shard.
//
// Nothing here reads a clock, a signal or the environment: the caller passes wall time, the
// stop request and the test hooks in SweepHooks, so the layer stays inside the determinism lint.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/campaign/sweep_report.h"
#include "checker/run/runner.h"
#include "checker/scenario/scenario.h"
#include "sim/result.h"

namespace repartsim::campaign {

// At most this many runs in one sweep (one shard): a bigger range is almost surely a typo,
// and the run list is held in memory. Bigger sweeps are split with shards. The cap keeps a
// shard's report readable by merge and --resume: a run record is about 232 bytes (a passing
// run; kSweepRunRecordBytes allows for failure messages), so a full shard's report stays under
// kSweepReportBytesMax, and merging it takes about 1.9 GB (measured at one million runs).
inline constexpr uint64_t kSweepRunsMax = 1'000'000;
inline constexpr uint64_t kSweepRunRecordBytes = 1024;
static_assert(kSweepRunsMax * kSweepRunRecordBytes <= kSweepReportBytesMax,
              "a full shard's report must fit the limit merge and --resume read");
// JSON values of one run record: 21 for a passing run, 37 for a run that broke two invariants.
inline constexpr uint64_t kSweepRunRecordValues = 40;
static_assert(kSweepRunsMax * kSweepRunRecordValues <= kSweepReportValuesMax,
              "a full shard's report must fit the values merge and --resume parse");

struct Shard {
  uint32_t index = 0;
  uint32_t count = 1;

  std::string Text() const;  // "I/N"
};

// "I/N" with 0 <= I < N < 2^32; nullopt for anything else.
std::optional<Shard> ParseShard(std::string_view text);

// --rule overrides as a report names them: "a=off,b=on" ("" for none).
std::string RulesText(const std::vector<std::pair<std::string, bool>>& rules);

struct SweepItem {
  size_t scenario = 0;  // index into SweepPlan::scenarios
  uint64_t seed = 0;
};

class SweepPlan {
 public:
  // `rules`: the sweep's overrides (also in base.rules); `seeds`: --seeds, or nullopt for
  // each scenario's own range.
  SweepPlan(run::RunConfig base, Shard shard, std::optional<std::pair<uint64_t, uint64_t>> seeds);

  // Adds a scenario: its row (expectation under the effective profile) to `report.scenarios`
  // and its seeds that fall in this shard to the items. A scenario whose row the report
  // already has (the same file named twice) is skipped. Error (no location; the caller knows
  // which argument to blame): more than kSweepRunsMax runs in this shard.
  sim::Status Add(scenario::Scenario scenario, const std::string& file_hash, SweepReport& report);

  // The runs an earlier report of the same sweep (same SweepId) already finished, in item
  // order (`path` empty where the run is still to do), and `done` set for them; a note for the
  // report. Error: `previous` belongs to another sweep.
  sim::Result<std::vector<SweepRun>> Resume(const SweepReport& previous, const SweepReport& report,
                                            const std::string& name, std::string* note);

  // A run record that did not run: outcome "skipped" or "unrun".
  SweepRun Placeholder(size_t item, const char* outcome) const;

  const std::vector<scenario::Scenario>& scenarios() const { return scenarios_; }
  // Each scenario's row (its expectation under the effective profile), as in the report.
  const std::vector<SweepScenario>& rows() const { return rows_; }
  const std::vector<SweepItem>& items() const { return items_; }
  const std::vector<bool>& done() const { return done_; }
  const run::RunConfig& base() const { return base_; }
  const std::string& rules() const { return rules_; }

  // Stop starting runs after this many ms of wall time (0: no budget); the rest are skipped.
  int64_t budget_ms = 0;
  // --raw: the progress counts every violation as unexpected.
  bool raw = false;

 private:
  std::vector<scenario::Scenario> scenarios_;
  std::vector<SweepScenario> rows_;  // parallel to scenarios_
  std::vector<SweepItem> items_;
  std::vector<bool> done_;
  run::RunConfig base_;
  std::string rules_;
  Shard shard_;
  std::optional<std::pair<uint64_t, uint64_t>> seeds_;
  uint64_t position_ = 0;  // of the next scenario's first seed in the global list, mod N
};

struct SweepHooks {
  // Wall-clock milliseconds since some fixed start (time budget, per-run timings). REQUIRED.
  std::function<int64_t()> now_ms;
  // True once the sweep should stop (a signal); polled between runs. Optional.
  std::function<bool()> should_stop;
  // Called in each worker process after the fork. Optional.
  std::function<void()> in_child;
  // Called in the parent after each finished run: runs finished, runs to do, and runs so far
  // that fail their row (RunUnexpected: expected and tolerated violations are not counted).
  std::function<void(size_t done, size_t total, size_t unexpected)> progress;
  // Called in a worker after it reported a run (test hooks). Optional.
  std::function<void(size_t index, uint32_t worker)> after_report;
  // Called in a worker before it runs a seed (test hooks). Optional.
  std::function<void(uint64_t seed)> before_run;
};

struct SweepExecution {
  std::vector<SweepRun> runs;      // in item order, every item filled
  std::vector<std::string> notes;  // dead workers, workers that could not be started
  bool stopped = false;            // should_stop turned true: unfinished runs are skipped
};

// Runs every item not done with `jobs` worker processes; `runs` as Resume returned them (or
// empty records). Items a dead worker never reported are `unrun`; after a stop, `skipped`.
SweepExecution ExecuteSweep(const SweepPlan& plan, std::vector<SweepRun> runs, uint32_t jobs,
                            const SweepHooks& hooks);

// Runs that finished (neither skipped nor unrun).
size_t FinishedRuns(const std::vector<SweepRun>& runs);

// Re-runs a sample in this process, at most `per_scenario` seeds of each scenario row (the
// fastest failing seed of each failure group first, then the first seeds), and compares trace
// hashes with the report's runs; each mismatch names the first divergent event. Stops early
// when `should_stop` says so.
void RecheckDeterminism(const SweepPlan& plan, SweepReport& report, uint32_t per_scenario,
                        const std::function<bool()>& should_stop);

// Completes `report` (its header from the plan) with the execution `ex`: its runs and notes;
// interrupted when it stopped or a stop signal (StopSignals) came, and then not complete, with
// a note naming the signal; the aggregate; and, unless interrupted, the determinism re-check
// of `recheck` seeds per scenario (stopped by a signal). Returns the sweep's exit code:
// report.ExitCode(), except 128 + the signal for a sweep a signal interrupted that found
// nothing worse than its unrun runs.
int FinishSweep(const SweepPlan& plan, SweepExecution ex, uint32_t recheck, SweepReport& report);

}  // namespace repartsim::campaign
