// Goal: the runner's WorkloadFeeder issues exactly the workload DrawWorkload draws (the same
// statements at the same times, in the same order) while the op queue holds only each
// stream's next statement, and it leaves the workload PRNG where drawing the whole workload
// leaves it.
// Method: a scenario with two frontends, two writers and two readers each (multi-row and bulk
// writes, all four query shapes), run through RunScenario; the History's client statements
// are compared with DrawWorkload of the same seed, and the op queue is sized after every step.
#include "checker/run/workload.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"

namespace repartsim::run {
namespace {
namespace workload_test {

constexpr char kScenario[] = R"(name: feeder
profile: reference
cluster: {datanodes: 3, frontends: 2}
table: |
  CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT,
                    PRIMARY KEY (host, a))
  PARTITION ON COLUMNS (a) (a < 10, a >= 10)
workload:
  writers: 2
  readers: 2
  write_interval_ms: 150
  read_interval_ms: 250
  rows_per_write: 3
  bulk: "1/4"
  columns:
    a: {min: 0, max: 19}
    host: {values: [h0, h1, h2]}
  queries: [all, count, point, range]
limits: {time_ms_max: 4000}
expect: {reference: pass}
)";

constexpr size_t kStreams = 8;  // 2 frontends x (2 writers + 2 readers)

scenario::Scenario Load() { return scenario::ParseScenario(kScenario, "feeder.yaml").value(); }

TEST(WorkloadFeederTest, IssuesTheDrawnWorkloadInOrderHoldingOneStatementPerStream) {
  const scenario::Scenario s = Load();
  constexpr uint64_t kSeed = 5;
  sim::Prng root(kSeed);
  sim::Prng workload_prng = root.Fork();  // the runner's fork order: the workload first
  const std::vector<WorkloadOp> drawn = DrawWorkload(s, workload_prng);
  std::vector<const model::InsertOp*> inserts;
  std::vector<const model::QueryOp*> queries;
  std::vector<int64_t> insert_at;
  std::vector<int64_t> query_at;
  for (const WorkloadOp& op : drawn) {
    if (const auto* insert = std::get_if<model::InsertOp>(&op.statement)) {
      inserts.push_back(insert);
      insert_at.push_back(op.at_ms);
    } else {
      queries.push_back(&std::get<model::QueryOp>(op.statement));
      query_at.push_back(op.at_ms);
    }
  }
  ASSERT_EQ(inserts.size(), 56u);
  ASSERT_EQ(queries.size(), 31u);

  model::History history;
  std::vector<model::QueryRecord> issued_queries;
  size_t most_ops = 0;
  RunConfig config;
  config.seed = kSeed;
  config.after_step = [&](const StepView& v) {
    if (!v.healed) most_ops = std::max(most_ops, v.cluster.scheduled_ops());
    // The history's records are complete once the run ends; copy them at the last look. A
    // query's SQL text is copied when it is issued (a query that passed sheds it).
    history = v.cluster.history();
    const model::History& now = v.cluster.history();
    for (size_t i = issued_queries.size(); i < now.retired_queries + now.queries.size(); ++i) {
      issued_queries.push_back(now.Query(i + 1));
    }
    return true;
  };
  auto report = RunScenario(s, config);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report.value().outcome, Outcome::kPass);

  // Workload statements come first in id order; the liveness probes after heal follow.
  const std::deque<model::WriteRecord>& writes = history.writes;
  ASSERT_GE(writes.size(), inserts.size());
  for (size_t i = 0; i < inserts.size(); ++i) {
    SCOPED_TRACE("write " + std::to_string(i + 1));
    EXPECT_EQ(writes[i].start.ms, insert_at[i]);
    EXPECT_EQ(writes[i].frontend.value, s.datanode_count + 1 + inserts[i]->frontend_index);
    EXPECT_EQ(history.RowsOf(writes[i]), inserts[i]->rows);
    EXPECT_EQ(writes[i].path, inserts[i]->path);
  }
  ASSERT_GE(issued_queries.size(), queries.size());
  for (size_t i = 0; i < queries.size(); ++i) {
    SCOPED_TRACE("query " + std::to_string(i + 1));
    EXPECT_EQ(issued_queries[i].start.ms, query_at[i]);
    EXPECT_EQ(issued_queries[i].sql, queries[i]->sql);
  }
  // Each stream's next statement, CREATE TABLE at first and the heal at the end: never the
  // whole workload.
  EXPECT_GE(most_ops, kStreams);
  EXPECT_LE(most_ops, kStreams + 2);
}

TEST(WorkloadFeederTest, LeavesThePrngWhereDrawingTheWholeWorkloadLeavesIt) {
  const scenario::Scenario s = Load();
  sim::Prng drawn(11);
  sim::Prng fed(11);
  const std::vector<WorkloadOp> ops = DrawWorkload(s, drawn);
  model::Cluster cluster(model::ClusterConfig{},
                         model::Protocol::FromProfileName("reference").value());
  WorkloadFeeder feeder(s, fed, cluster);
  EXPECT_EQ(fed.draw_count(), drawn.draw_count());
  EXPECT_EQ(fed.Next(), drawn.Next());
  const uint64_t inserts =
      static_cast<uint64_t>(std::count_if(ops.begin(), ops.end(), [](const WorkloadOp& op) {
        return std::holds_alternative<model::InsertOp>(op.statement);
      }));
  EXPECT_EQ(feeder.counts().inserts, inserts);
  EXPECT_EQ(feeder.counts().queries, ops.size() - inserts);
  EXPECT_EQ(cluster.scheduled_ops(), kStreams);  // the first statement of each stream
}

// `workload.frontends: 1`: only fe1 runs streams; the same draw as a one-frontend cluster's.
TEST(WorkloadFeederTest, RunsOnlyOnTheFirstFrontendsItNames) {
  scenario::Scenario s = Load();
  s.workload.frontend_count = 1;
  sim::Prng prng(5);
  const std::vector<WorkloadOp> ops = DrawWorkload(s, prng);
  ASSERT_FALSE(ops.empty());
  for (const WorkloadOp& op : ops) {
    const auto* insert = std::get_if<model::InsertOp>(&op.statement);
    const uint32_t frontend = insert != nullptr
                                  ? insert->frontend_index
                                  : std::get<model::QueryOp>(op.statement).frontend_index;
    EXPECT_EQ(frontend, 0u);
  }
  scenario::Scenario one = Load();
  one.frontend_count = 1;
  sim::Prng one_prng(5);
  EXPECT_EQ(DrawWorkload(one, one_prng).size(), ops.size());
  EXPECT_EQ(one_prng.draw_count(), prng.draw_count());
  // Every frontend (the default, 0) draws more.
  sim::Prng all_prng(5);
  EXPECT_GT(DrawWorkload(Load(), all_prng).size(), ops.size());
}

}  // namespace workload_test
}  // namespace
}  // namespace repartsim::run
