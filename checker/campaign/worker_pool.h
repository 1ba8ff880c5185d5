// WorkerPool: runs numbered tasks in forked worker processes, at most `jobs` at once, and
// brings one line of text per task back to the parent. Processes, not threads: the model
// keeps process-wide assertion context, and an internal error (exit 70) or a crash of one
// task must not take the campaign down with it.
//
// Two ways to hand out tasks (one loop serves both):
//   - kStriped: `jobs` workers forked up front, worker w taking tasks w, w + jobs, ... in
//     order (a sweep of thousands of short runs: one fork per worker);
//   - kOnePerProcess: a fresh process per task, the next forked when a slot frees (a few long
//     tasks, e.g. one mutant each: a dying task loses only itself).
// A worker writes "<index> <result>\n" per finished task; the parent polls every pipe, hands
// each result to `on_result` as it arrives (a line torn by a dying worker is dropped), reaps
// every worker, and reports each that did not exit 0 with the tasks it never reported: a
// worker that dies of a task (an internal error, exit 70) names it, and its remaining tasks go
// to a new worker. Once `should_stop` says so, every worker is sent SIGTERM and no new one is
// forked. One job forks one worker too; only when no worker can be forked while none runs do
// tasks run in this process.
// Nothing here reads a clock or the environment: timing and test hooks stay with the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace repartsim::campaign {

enum class Assignment : uint8_t { kStriped, kOnePerProcess };

struct PoolTasks {
  size_t count = 0;
  // Runs task `index` and returns its result: one line, no '\n'. `worker` is the 0-based
  // worker slot (0 when run in this process). Called in the worker process.
  std::function<std::string(size_t index, uint32_t worker)> run;
  // Called in the parent for each result, in arrival order. REQUIRED.
  std::function<void(size_t index, std::string result)> on_result;
  // Optional: polled in the parent before each fork and between reads (in process: before
  // each task); true stops the pool.
  std::function<bool()> should_stop;
  // Optional: called in each worker right after the fork (e.g. default signal actions).
  std::function<void()> in_child;
  // Optional: called in a worker after it reported task `index` (test hooks).
  std::function<void(size_t index, uint32_t worker)> after_report;
};

// A worker that did not exit 0 (killed, or an internal error).
struct WorkerDeath {
  uint32_t worker = 0;  // 0-based slot
  int pid = 0;
  int status = 0;                  // as waitpid returned it
  std::vector<size_t> unreported;  // its tasks that never came back, in task order
  // The task it was running when it died (it announces each before running it); the rest of
  // its tasks then went to a new worker, so `unreported` holds only this one. nullopt: it
  // died between tasks (killed from outside) and `unreported` holds all it did not report.
  std::optional<size_t> culprit;
};

struct PoolOutcome {
  std::vector<bool> reported;       // per task: its result reached on_result
  std::vector<WorkerDeath> deaths;  // in reaping order
  uint32_t workers_started = 0;     // processes forked; 0 when everything ran in this process
  bool stopped = false;             // should_stop turned true
};

// Runs tasks 0 .. count-1. REQUIRES: run and on_result are set.
PoolOutcome RunPool(const PoolTasks& tasks, uint32_t jobs, Assignment assignment);

// "exit code 70", "killed by signal 9 (Killed)": a waitpid status for a report.
std::string DescribeWaitStatus(int status);

}  // namespace repartsim::campaign
