// Goal: the worker pool (checker/campaign/worker_pool.h) brings every task's line back exactly
// once under both assignments and in process; a worker that dies is reported with exactly
// the tasks it never reported (a striped worker loses the rest of its stripe, a one-task
// process only itself); a stop request sends every worker SIGTERM and forks nothing more;
// DescribeWaitStatus names exits and signals.
// Method: real forks with tiny tasks (a line naming the task and the worker's pid), deaths
// planted by _exit and raise(SIGKILL) inside the task.
#include "checker/campaign/worker_pool.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace repartsim::campaign {
namespace {
namespace worker_pool_test {

struct Collected {
  std::map<size_t, std::string> results;
  std::vector<size_t> order;
};

PoolTasks Tasks(size_t count, Collected& out) {
  PoolTasks t;
  t.count = count;
  t.run = [](size_t index, uint32_t worker) {
    return "task " + std::to_string(index) + " slot " + std::to_string(worker) + " pid " +
           std::to_string(getpid());
  };
  t.on_result = [&out](size_t index, std::string result) {
    EXPECT_EQ(out.results.count(index), 0u) << "task " << index << " reported twice";
    out.results[index] = std::move(result);
    out.order.push_back(index);
  };
  return t;
}

std::string Prefix(const std::string& result) { return result.substr(0, result.find(" pid ")); }

TEST(WorkerPoolTest, StripedWorkersReportEveryTaskOnceFromTheirStripe) {
  Collected out;
  PoolOutcome o = RunPool(Tasks(7, out), 3, Assignment::kStriped);
  EXPECT_EQ(o.workers_started, 3u);
  EXPECT_TRUE(o.deaths.empty());
  EXPECT_FALSE(o.stopped);
  EXPECT_EQ(o.reported, std::vector<bool>(7, true));
  ASSERT_EQ(out.results.size(), 7u);
  for (size_t k = 0; k < 7; ++k) {
    EXPECT_EQ(Prefix(out.results[k]),
              "task " + std::to_string(k) + " slot " + std::to_string(k % 3));
    EXPECT_NE(out.results[k].find(" pid "), std::string::npos);
    EXPECT_EQ(out.results[k].find(" pid " + std::to_string(getpid())), std::string::npos);
  }
}

TEST(WorkerPoolTest, OnePerProcessForksAProcessPerTask) {
  Collected out;
  PoolOutcome o = RunPool(Tasks(5, out), 2, Assignment::kOnePerProcess);
  EXPECT_EQ(o.workers_started, 5u);
  EXPECT_TRUE(o.deaths.empty());
  ASSERT_EQ(out.results.size(), 5u);
  std::map<std::string, int> pids;
  for (const auto& [index, result] : out.results) {
    ++pids[result.substr(result.find(" pid "))];
    const std::string slot = Prefix(result).substr(Prefix(result).find(" slot "));
    EXPECT_TRUE(slot == " slot 0" || slot == " slot 1") << result;
  }
  EXPECT_EQ(pids.size(), 5u);
}

TEST(WorkerPoolTest, OneJobRunsInOneWorkerInOrder) {
  Collected out;
  PoolOutcome o = RunPool(Tasks(4, out), 1, Assignment::kStriped);
  EXPECT_EQ(o.workers_started, 1u);
  EXPECT_EQ(out.order, (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_EQ(Prefix(out.results[2]), "task 2 slot 0");
  EXPECT_EQ(out.results[2].find(" pid " + std::to_string(getpid())), std::string::npos);
}

// Issue 54 (R2): a run that failed an assertion (exit 70) in a one-job sweep took the sweep
// and its reports down; in a striped worker it lost the rest of the stripe, unnamed.
TEST(WorkerPoolTest, AWorkerThatDiesOfATaskNamesItAndANewWorkerRunsTheRest) {
  for (const uint32_t jobs : {1u, 2u}) {
    Collected out;
    PoolTasks t = Tasks(6, out);
    const auto run = t.run;
    t.run = [run](size_t index, uint32_t worker) {
      if (index == 2) _exit(70);
      return run(index, worker);
    };
    PoolOutcome o = RunPool(t, jobs, Assignment::kStriped);
    ASSERT_EQ(o.deaths.size(), 1u) << jobs;
    EXPECT_EQ(o.deaths[0].culprit, std::optional<size_t>(2));
    EXPECT_EQ(o.deaths[0].unreported, (std::vector<size_t>{2}));
    EXPECT_EQ(DescribeWaitStatus(o.deaths[0].status), "exit code 70");
    EXPECT_EQ(o.reported, (std::vector<bool>{true, true, false, true, true, true})) << jobs;
    EXPECT_EQ(o.workers_started, jobs + 1);
  }
}

TEST(WorkerPoolTest, AStripedWorkerThatDiesLosesTheRestOfItsStripe) {
  Collected out;
  PoolTasks t = Tasks(6, out);
  // Worker 1 takes tasks 1, 3, 5 and is killed after reporting task 1.
  t.after_report = [](size_t index, uint32_t) {
    if (index == 1) raise(SIGKILL);
  };
  PoolOutcome o = RunPool(t, 2, Assignment::kStriped);
  ASSERT_EQ(o.deaths.size(), 1u);
  EXPECT_EQ(o.deaths[0].worker, 1u);
  EXPECT_TRUE(WIFSIGNALED(o.deaths[0].status));
  EXPECT_EQ(o.deaths[0].unreported, (std::vector<size_t>{3, 5}));
  EXPECT_EQ(o.deaths[0].culprit, std::nullopt);  // killed between tasks
  EXPECT_EQ(o.reported, (std::vector<bool>{true, true, true, false, true, false}));
  EXPECT_EQ(DescribeWaitStatus(o.deaths[0].status), "killed by signal 9 (Killed)");
}

TEST(WorkerPoolTest, AOneTaskProcessThatDiesLosesOnlyItsTask) {
  Collected out;
  PoolTasks t = Tasks(4, out);
  auto base = t.run;
  t.run = [base](size_t index, uint32_t worker) {
    if (index == 2) _exit(70);
    return base(index, worker);
  };
  PoolOutcome o = RunPool(t, 2, Assignment::kOnePerProcess);
  ASSERT_EQ(o.deaths.size(), 1u);
  EXPECT_EQ(o.deaths[0].unreported, (std::vector<size_t>{2}));
  EXPECT_EQ(DescribeWaitStatus(o.deaths[0].status), "exit code 70");
  EXPECT_EQ(o.reported, (std::vector<bool>{true, true, false, true}));
  // One job still isolates each task.
  Collected one;
  PoolTasks t1 = Tasks(3, one);
  t1.run = t.run;
  PoolOutcome o1 = RunPool(t1, 1, Assignment::kOnePerProcess);
  EXPECT_EQ(o1.workers_started, 3u);
  ASSERT_EQ(o1.deaths.size(), 1u);
  EXPECT_EQ(o1.deaths[0].unreported, (std::vector<size_t>{2}));
  EXPECT_EQ(one.order, (std::vector<size_t>{0, 1}));
}

TEST(WorkerPoolTest, AStopRequestEndsThePoolWithTheFinishedTasksReported) {
  Collected out;
  PoolTasks t = Tasks(6, out);
  t.should_stop = [&out] { return out.results.size() >= 2; };
  PoolOutcome o = RunPool(t, 2, Assignment::kOnePerProcess);
  EXPECT_TRUE(o.stopped);
  EXPECT_LE(o.workers_started, 4u);  // at most the two running when the second result came
  size_t reported = 0;
  for (bool r : o.reported) reported += r;
  EXPECT_EQ(reported, out.results.size());
  EXPECT_GE(reported, 2u);
  EXPECT_LT(reported, 6u);
  // One striped worker: its results come in order, the stop is seen after the third.
  Collected one;
  PoolTasks h = Tasks(6, one);
  h.should_stop = [&one] { return one.results.size() >= 3; };
  PoolOutcome oh = RunPool(h, 1, Assignment::kStriped);
  EXPECT_TRUE(oh.stopped);
  ASSERT_GE(one.order.size(), 3u);
  for (size_t k = 0; k < one.order.size(); ++k) EXPECT_EQ(one.order[k], k);
}

TEST(WorkerPoolTest, TornAndForeignLinesAreDropped) {
  Collected out;
  PoolTasks t = Tasks(2, out);
  // Task 0 also writes a line claiming task 1 (not its stripe) and one with no index.
  t.run = [](size_t index, uint32_t) -> std::string {
    if (index == 0) return "zero\n1 forged\nnot-a-number x\n0 again";
    return "one";
  };
  PoolOutcome o = RunPool(t, 2, Assignment::kStriped);
  EXPECT_TRUE(o.deaths.empty());
  EXPECT_EQ(out.results[0], "zero");
  EXPECT_EQ(out.results[1], "one");
  EXPECT_EQ(out.results.size(), 2u);
}

}  // namespace worker_pool_test
}  // namespace
}  // namespace repartsim::campaign
