// Shared harness of the repartition tests: a 3-datanode, 2-frontend cluster with table t
// (host STRING, ts TIMESTAMP, v BIGINT, a INT) partitioned on `a`, helpers to schedule
// inserts, queries and ALTER statements, and to run under the timed driver with no random
// faults (scripted crashes only, through the CrashPlan).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/cluster/cluster.h"
#include "model/meta/meta_codec.h"
#include "model/meta/meta_keys.h"
#include "model/meta/table_metadata.h"
#include "model/sql/parser.h"
#include "sim/chooser.h"
#include "sim/simulation.h"
#include "sim/trace.h"
#include "tests/model/cluster/cluster_harness.h"

namespace repartsim::model::testing {

inline Row MakeRow(int64_t a, int64_t v = 0) {
  return Row{Value::String("h"), Value::Timestamp(1000 + a), Value::Int(v), Value::Int(a)};
}

inline RegionId RegionN(uint32_t number) { return RegionId::Of(kTable, RegionNumber{number}); }

// Rows in TotalOrder, for multiset comparisons.
inline std::vector<Row> SortedRows(std::vector<Row> rows) { return Sorted(std::move(rows)); }

struct RepartitionHarness {
  explicit RepartitionHarness(
      Protocol protocol = Protocol::Greptime(),
      const std::string& partition = "PARTITION ON COLUMNS (a) (a < 100, a >= 100)",
      ClusterConfig config = {})
      : cluster(config, protocol) {
    trace.KeepLines(true);
    std::string sql =
        "CREATE TABLE t (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT, "
        "PRIMARY KEY (host, a)) " +
        partition;
    auto statements = sql::ParseStatements(sql, "<test>");
    EXPECT_TRUE(statements.ok()) << (statements.ok() ? "" : statements.error().Format());
    create = std::get<sql::CreateTable>(statements.value().at(0).body);
    cluster.Schedule(sim::AtMs(0), cluster.PlanCreateTable(kTable, create.schema, create.rule));
  }

  void Insert(int64_t at_ms, uint32_t frontend, std::vector<Row> rows,
              WritePath path = WritePath::kRow) {
    cluster.Schedule(sim::AtMs(at_ms), InsertOp{frontend, kTable, std::move(rows), path});
  }
  void Query(int64_t at_ms, uint32_t frontend) {
    cluster.Schedule(sim::AtMs(at_ms),
                     QueryOp{frontend, kTable, false, std::nullopt, "SELECT * FROM t"});
  }
  void Alter(int64_t at_ms, const std::string& sql, uint32_t frontend = 0) {
    auto statements = sql::ParseStatements(sql, "<test>");
    ASSERT_TRUE(statements.ok()) << statements.error().Format();
    cluster.Schedule(
        sim::AtMs(at_ms),
        RepartitionOp{frontend, kTable, std::get<sql::AlterRepartition>(statements.value()[0].body),
                      sql});
  }
  sim::RunResult RunUntil(int64_t time_ms_max) {
    sim::RunOptions options;
    options.time_ms_max = time_ms_max;
    options.seed = 11;
    sim::Simulation<Cluster> simulation(cluster, chooser, trace, crash_plan, crash_stats, options);
    return simulation.Run();
  }
  bool TraceHas(const std::string& needle) const {
    return std::any_of(trace.lines().begin(), trace.lines().end(), [&](const std::string& line) {
      return line.find(needle) != std::string::npos;
    });
  }
  std::string TraceText() const {
    std::string out;
    for (const std::string& line : trace.lines()) out += line + "\n";
    return out;
  }
  TableRoute Route() const { return *ReadTableRoute(cluster.metasrv().kv(), kTable); }
  const model::Region* DatanodeRegion(RegionId region) const {
    for (uint32_t i = 0; i < cluster.config().datanode_count; ++i) {
      const model::Region* r = cluster.datanode(cluster.datanode_id(i)).FindRegion(region);
      if (r != nullptr) return r;
    }
    return nullptr;
  }
  std::string RouteExpr(RegionId region) const {
    const TableRoute route = Route();
    const RegionRoute* r = route.Find(region);
    return r == nullptr ? "<none>" : (r->partition_expr ? r->partition_expr->ToSql() : "");
  }

  sql::CreateTable create;
  Cluster cluster;
  sim::RandomChooser chooser{11};
  sim::Trace trace;
  sim::CrashPlan crash_plan;
  sim::CrashPointStats crash_stats;
};

// The DDL as the metasrv ran it, whatever its client saw: Done or Failed (with the
// procedure's error) as the procedure ended, or Failed "procedure lost in a metasrv crash"
// when the procedure is gone without an end (a crash before anything was persisted). A
// client's call is lost in a metasrv crash even when the recovered procedure finishes.
inline DdlRecord AsRun(DdlRecord ddl, const History& history, const Metasrv& metasrv) {
  // (End step and time are the procedure's end too.)
  // (A test DDL is submitted at most once: its first procedure is the one that ran.)
  const uint64_t procedure = ddl.procedures.empty() ? 0 : ddl.procedures.front();
  if (const ProcedureEnd* end = procedure == 0 ? nullptr : history.EndOf(procedure)) {
    ddl.status = end->done ? DdlStatus::kDone : DdlStatus::kFailed;
    ddl.error = end->error;
    ddl.end_step = end->step;
    ddl.end = end->at;
  } else if (procedure != 0 && metasrv.procedures().Find(ProcedureId{procedure}) == nullptr) {
    ddl.status = DdlStatus::kFailed;
    ddl.error = "procedure lost in a metasrv crash";
  }
  return ddl;
}

// DDL `index` (0-based) of the run as the metasrv ran it (AsRun).
inline DdlRecord RunDdl(const RepartitionHarness& h, size_t index = 0) {
  return AsRun(h.cluster.history().ddls.at(index), h.cluster.history(), h.cluster.metasrv());
}

}  // namespace repartsim::model::testing
