// Cluster benchmarks (issue 4): writes per second through the full path (client op ->
// frontend -> datanode -> ack -> history) under the timed driver, and the cost of one snapshot
// (copy) and one fingerprint of a cluster holding 10,000 rows.
#include <benchmark/benchmark.h>

#include "model/cluster/cluster.h"
#include "model/sql/parser.h"
#include "sim/chooser.h"
#include "sim/simulation.h"
#include "sim/trace.h"

namespace repartsim::model {
namespace {

constexpr TableId kTable{1024};

Row MakeRow(int64_t i) {
  return Row{Value::String("host" + std::to_string(i % 16)), Value::Timestamp(i), Value::Int(i),
             Value::Int(i % 300)};
}

Cluster MakeCluster() {
  auto statements = sql::ParseStatements(
      "CREATE TABLE t (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT, PRIMARY KEY (host, "
      "a)) "
      "PARTITION ON COLUMNS (a) (a < 100, a >= 100 AND a < 200, a >= 200)",
      "<bench>");
  const auto& create = std::get<sql::CreateTable>(statements.value().at(0).body);
  Cluster cluster(ClusterConfig{}, Protocol::Greptime());
  cluster.Schedule(sim::AtMs(0), cluster.PlanCreateTable(kTable, create.schema, create.rule));
  return cluster;
}

void Run(Cluster& cluster, int64_t until_ms) {
  sim::RandomChooser chooser(1);
  sim::Trace trace;
  sim::CrashPlan plan;
  sim::CrashPointStats stats;
  sim::RunOptions options;
  options.time_ms_max = until_ms;
  options.steps_max = 100000000;
  sim::Simulation<Cluster> simulation(cluster, chooser, trace, plan, stats, options);
  simulation.Run();
}

// One write of `batch` rows every millisecond through alternating frontends.
void BM_WritesFullPath(benchmark::State& state) {
  const int64_t batch = state.range(0);
  const int64_t writes = 2000;
  int64_t rows_written = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Cluster cluster = MakeCluster();
    Run(cluster, 2000);
    for (int64_t w = 0; w < writes; ++w) {
      std::vector<Row> rows;
      for (int64_t r = 0; r < batch; ++r) rows.push_back(MakeRow(w * batch + r));
      cluster.Schedule(sim::AtMs(2000 + w), InsertOp{static_cast<uint32_t>(w % 2), kTable,
                                                     std::move(rows), WritePath::kRow});
    }
    state.ResumeTiming();
    Run(cluster, 2000 + writes + 100);
    rows_written += writes * batch;
    benchmark::DoNotOptimize(cluster.history().writes.size());
  }
  state.counters["writes/s"] = benchmark::Counter(static_cast<double>(writes) * state.iterations(),
                                                  benchmark::Counter::kIsRate);
  state.counters["rows/s"] =
      benchmark::Counter(static_cast<double>(rows_written), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_WritesFullPath)->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond);

Cluster ClusterWith10kRows() {
  Cluster cluster = MakeCluster();
  Run(cluster, 2000);
  for (int64_t w = 0; w < 100; ++w) {
    std::vector<Row> rows;
    for (int64_t r = 0; r < 100; ++r) rows.push_back(MakeRow(w * 100 + r));
    cluster.Schedule(sim::AtMs(2000 + w), InsertOp{0, kTable, std::move(rows), WritePath::kRow});
  }
  Run(cluster, 2500);
  return cluster;
}

void BM_Snapshot10kRows(benchmark::State& state) {
  Cluster cluster = ClusterWith10kRows();
  for (auto _ : state) {
    Cluster copy = cluster;
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(BM_Snapshot10kRows)->Unit(benchmark::kMicrosecond);

void BM_Fingerprint10kRows(benchmark::State& state) {
  Cluster cluster = ClusterWith10kRows();
  for (auto _ : state) benchmark::DoNotOptimize(cluster.Fingerprint());
}
BENCHMARK(BM_Fingerprint10kRows)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace repartsim::model

BENCHMARK_MAIN();
