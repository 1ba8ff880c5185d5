// Shared harness of the cluster tests: a Cluster (3 datanodes, 2 frontends by default) with
// table t (host STRING, ts TIMESTAMP, v BIGINT, a INT) partitioned on `a` into a < 10,
// 10 <= a < 20, a >= 20 (region i on datanode i), helpers to schedule statements, and a run
// under the timed driver with no random faults, keeping every trace line for assertions.
// Trace lines are "<step> <time_ms> <node> <kind> [<detail>]" (sim/trace.h).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "model/cluster/cluster.h"
#include "model/sql/parser.h"
#include "sim/chooser.h"
#include "sim/simulation.h"
#include "sim/trace.h"

namespace repartsim::model::testing {

inline constexpr TableId kTable{1024};
inline constexpr char kCreate[] =
    "CREATE TABLE t (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT, PRIMARY KEY (host, a)) "
    "PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)";

inline sql::CreateTable ParseCreate(const std::string& text = kCreate) {
  auto statements = sql::ParseStatements(text, "<test>");
  EXPECT_TRUE(statements.ok()) << (statements.ok() ? "" : statements.error().Format());
  return std::get<sql::CreateTable>(statements.value().at(0).body);
}

inline Row MakeRow(const std::string& host, int64_t ts, int64_t v, int64_t a) {
  return Row{Value::String(host), Value::Timestamp(ts), Value::Int(v), Value::Int(a)};
}

inline std::vector<Row> Sorted(std::vector<Row> rows) {
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
      int c = TotalOrder(a[i], b[i]);
      if (c != 0) return c < 0;
    }
    return a.size() < b.size();
  });
  return rows;
}

struct Harness {
  explicit Harness(Protocol protocol = Protocol::Greptime(), ClusterConfig config = {})
      : cluster(config, protocol) {
    trace.KeepLines(true);
  }

  // CREATE TABLE t (or the same schema and partitions under another table id).
  void CreateTable(sim::SimTime at, TableId table = kTable) {
    sql::CreateTable create = ParseCreate();
    cluster.Schedule(at, cluster.PlanCreateTable(table, create.schema, create.rule));
  }
  void Insert(sim::SimTime at, uint32_t frontend, std::vector<Row> rows,
              WritePath path = WritePath::kRow) {
    cluster.Schedule(at, InsertOp{frontend, kTable, std::move(rows), path});
  }
  void Query(sim::SimTime at, uint32_t frontend, const std::string& where = "") {
    QueryOp op{frontend, kTable, false, std::nullopt, "SELECT * FROM t"};
    if (!where.empty()) {
      auto predicate = sql::ParsePredicate(where, "<test>");
      EXPECT_TRUE(predicate.ok());
      op.where = predicate.value();
      op.sql += " WHERE " + where;
    }
    cluster.Schedule(at, op);
  }
  // ALTER TABLE t ... (SPLIT / MERGE / REPARTITION) through `frontend`.
  void Alter(sim::SimTime at, const std::string& sql, uint32_t frontend = 0) {
    auto statements = sql::ParseStatements(sql, "<test>");
    ASSERT_TRUE(statements.ok()) << statements.error().Format();
    cluster.Schedule(
        at, RepartitionOp{frontend, kTable,
                          std::get<sql::AlterRepartition>(statements.value()[0].body), sql});
  }
  sim::RunResult RunUntil(int64_t time_ms_max) {
    sim::RunOptions options;
    options.time_ms_max = time_ms_max;
    options.seed = 7;
    sim::Simulation<Cluster> simulation(cluster, chooser, trace, crash_plan, crash_stats, options);
    return simulation.Run();
  }
  bool TraceHas(const std::string& needle) const { return TraceCount(needle) > 0; }
  size_t TraceCount(const std::string& needle) const {
    return static_cast<size_t>(std::count_if(
        trace.lines().begin(), trace.lines().end(),
        [&](const std::string& line) { return line.find(needle) != std::string::npos; }));
  }
  // The lines containing `needle`, in trace order.
  std::vector<std::string> TraceLines(const std::string& needle) const {
    std::vector<std::string> out;
    for (const std::string& line : trace.lines()) {
      if (line.find(needle) != std::string::npos) out.push_back(line);
    }
    return out;
  }
  // The virtual times (ms) of the lines containing `needle`, in trace order.
  std::vector<int64_t> TraceTimes(const std::string& needle) const {
    std::vector<int64_t> out;
    for (const std::string& line : TraceLines(needle)) out.push_back(LineTime(line));
    return out;
  }
  static int64_t LineTime(const std::string& line) {
    return std::strtoll(line.c_str() + line.find(' ') + 1, nullptr, 10);
  }
  static uint64_t LineStep(const std::string& line) {
    return std::strtoull(line.c_str(), nullptr, 10);
  }
  std::string TraceText() const {
    std::string out;
    for (const std::string& line : trace.lines()) out += line + "\n";
    return out;
  }

  Cluster cluster;
  sim::RandomChooser chooser{7};
  sim::Trace trace;
  sim::CrashPlan crash_plan;
  sim::CrashPointStats crash_stats;
};

}  // namespace repartsim::model::testing
