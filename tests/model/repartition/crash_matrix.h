// Shared table-driven machinery of the metasrv crash-matrix tests (docs/protocol.md section 10.7):
// the scenarios (split, merge, unpartitioned), the expected outcome of a crash case, and Run/Check,
// which run a scenario with a scripted or immediate metasrv crash, restart it 1 s later, read
// every row back and compare the DDL outcome, the route, the datanodes' committed expressions,
// the rows and the state recovery resumes at. Used by crash_recovery_test.cc and
// crash_recovery_merge_test.cc.
#pragma once

#include <cstdio>

#include "checker/scenario/crash_sites.h"
#include "tests/model/repartition/procedure_probe.h"

namespace repartsim::model::testing::crash_matrix {

enum class Rows : uint8_t { kAll, kMovedInvisible, kMergedDuplicated };
enum class Route : uint8_t { kTarget, kOriginal };

struct Outcome {
  DdlStatus status = DdlStatus::kDone;
  std::string error;
  Route route = Route::kTarget;
  Rows rows = Rows::kAll;
  bool datanodes_match_route = true;
};

struct Scenario {
  const char* name;
  const char* partition;
  const char* alter;
  // Rows written before the ALTER: a in [0, 200) step 7.
  // kMovedInvisible: rows with a in [moved_from, moved_to) are missing.
  // kMergedDuplicated: rows with a >= moved_from appear twice.
  int64_t moved_from;
  int64_t moved_to;
};

const Scenario kSplit{"split", "PARTITION ON COLUMNS (a) (a < 100, a >= 100)",
                      "ALTER TABLE t SPLIT PARTITION (a < 100) INTO (a < 50, a >= 50 AND a < 100)",
                      50, 100};
const Scenario kMerge{"merge", "PARTITION ON COLUMNS (a) (a < 10, a >= 10 AND a < 20, a >= 20)",
                      "ALTER TABLE t MERGE PARTITION (a >= 10 AND a < 20, a >= 20)", 20, 1000};
const Scenario kUnpartitioned{"unpartitioned", "",
                              "ALTER TABLE t PARTITION ON COLUMNS (a) (a < 50, a >= 50)", 50, 1000};

struct CrashCase {
  const char* after;    // the state that ran before the crash
  const char* site;     // crash point; "" = crash right after the state ran
  const char* resumes;  // the parent state recovery resumes at ("<none>": nothing recovered)
  // For site == "": crash as soon as the parent (or group 0) reaches this state.
  std::optional<ParentState> parent_reaches;
  std::optional<GroupState> group_reaches;
  Outcome greptime;
  Outcome reference;
};

const std::string kLost = "procedure lost in a metasrv crash";
const std::string kGroupsFailed =
    "Failed to wait for repartition groups: failed plans [0], unknown plans []";

inline Outcome Done() { return Outcome{}; }
inline Outcome Lost(Route route) {
  return Outcome{DdlStatus::kFailed, kLost, route, Rows::kAll, true};
}
inline Outcome RolledBack() {
  return Outcome{DdlStatus::kFailed, kGroupsFailed, Route::kOriginal, Rows::kAll, true};
}
// P2: rollback restores the route after datanodes committed the new expressions.
inline Outcome Diverged(Rows rows) {
  return Outcome{DdlStatus::kFailed, kGroupsFailed, Route::kOriginal, rows, false};
}

inline std::vector<Row> RowsBefore() {
  std::vector<Row> rows;
  for (int64_t a = 0; a < 200; a += 7) rows.push_back(MakeRow(a, a * 3));
  return rows;
}

inline std::vector<Row> ExpectedRows(const Scenario& s, Rows kind) {
  std::vector<Row> result;
  for (int64_t a = 0; a < 200; a += 7) {
    Row row = MakeRow(a, a * 3);
    bool moved = a >= s.moved_from && a < s.moved_to;
    if (kind == Rows::kMovedInvisible && moved) continue;
    result.push_back(row);
    if (kind == Rows::kMergedDuplicated && moved) result.push_back(row);
  }
  return result;
}

// Region number -> "expr|leader_state|write_policy" for every route.
inline std::vector<std::string> RouteShape(const RepartitionHarness& h) {
  std::vector<std::string> out;
  for (const RegionRoute& r : h.Route().region_routes) {
    out.push_back(std::to_string(r.region_id.region_number().value) + ":" +
                  (r.partition_expr ? r.partition_expr->ToSql() : "") + "|" +
                  std::string(LeaderStateName(r.leader_state)) + "|" +
                  std::string(WritePolicyName(r.write_policy)));
  }
  return out;
}

inline bool DatanodesMatchRoute(const RepartitionHarness& h, std::string* why) {
  bool match = true;
  for (const RegionRoute& r : h.Route().region_routes) {
    uint32_t n = r.region_id.region_number().value;
    std::string route_expr = r.partition_expr ? r.partition_expr->ToSql() : "";
    if (DnExpr(h, n) != route_expr) {
      *why +=
          "R" + std::to_string(n) + " route '" + route_expr + "' datanode '" + DnExpr(h, n) + "'; ";
      match = false;
    }
  }
  return match;
}

struct CrashRun {
  std::vector<std::string> route;
  DdlRecord ddl;
  QueryRecord query;
  std::string datanode_mismatch;
  bool datanodes_match = false;
  size_t records = 0;
  std::string trace;
  std::string resumed;  // parent state right after the restart
};

// One run of `s` with a metasrv crash at `c` (nullptr: no crash), restarted 1 s later.
inline CrashRun Run(const Scenario& s, Protocol protocol, const CrashCase* c,
                    std::vector<std::string>* original_route = nullptr) {
  RepartitionHarness h(protocol, s.partition);
  h.Insert(2000, 0, RowsBefore());
  h.Alter(3000, s.alter);
  ProcedureProbe p(h);
  p.RunUntil(2500);
  if (original_route != nullptr) *original_route = RouteShape(h);
  int64_t crash_ms = 3000;
  std::string resumed;
  if (c != nullptr) {
    bool crashed = false;
    if (std::string(c->site).empty()) {
      crashed = p.StepUntil([&] {
        return (c->parent_reaches && p.ParentStateNow() == c->parent_reaches) ||
               (c->group_reaches && p.GroupStateNow() == c->group_reaches);
      });
      p.CrashMetasrvNow();
    } else {
      h.crash_plan.Script(c->site, 1);
      crashed = p.ToMetasrvCrash(60000);
    }
    EXPECT_TRUE(crashed) << c->site << " never reached";
    crash_ms = p.now_ms();
    p.RestartMetasrvAt(crash_ms + 1000);
    EXPECT_TRUE(p.StepUntil([&] { return p.MetasrvUp(); }));
    const RepartitionProcedure* parent = p.Parent();
    resumed = parent == nullptr ? "<none>" : parent->state_name();
  }
  h.Query(crash_ms + 30000, 1);
  p.RunUntil(crash_ms + 40000);
  CrashRun r;
  r.route = RouteShape(h);
  r.ddl = RunDdl(h);
  r.query = h.cluster.history().queries.at(0);
  r.datanodes_match = DatanodesMatchRoute(h, &r.datanode_mismatch);
  r.records = p.RecordCount();
  r.trace = h.TraceText();
  r.resumed = resumed;
  return r;
}

inline void Check(const Scenario& s, Protocol protocol, const CrashCase& c, const Outcome& want) {
  SCOPED_TRACE(std::string(s.name) + " " + protocol.base_name() + " crash after " + c.after +
               " at " + (std::string(c.site).empty() ? "<now>" : c.site));
  // Crash sites and states are the procedures' own names (their kStateNames tables).
  if (!std::string(c.site).empty()) {
    EXPECT_TRUE(scenario::IsKnownCrashSite(c.site)) << c.site;
  }
  if (std::string(c.resumes) != "<none>") {
    EXPECT_TRUE(scenario::IsKnownProcedureState("Repartition." + std::string(c.resumes)))
        << c.resumes;
  }
  std::vector<std::string> original;
  CrashRun clean = Run(s, protocol, nullptr, &original);
  ASSERT_EQ(clean.ddl.status, DdlStatus::kDone) << clean.ddl.error;
  CrashRun r = Run(s, protocol, &c);
  EXPECT_EQ(r.resumed, c.resumes);
  EXPECT_EQ(r.ddl.status, want.status) << r.ddl.error;
  EXPECT_EQ(r.ddl.error, want.error);
  EXPECT_EQ(r.route, want.route == Route::kTarget ? clean.route : original);
  EXPECT_EQ(r.datanodes_match, want.datanodes_match_route) << r.datanode_mismatch;
  ASSERT_EQ(r.query.status, QueryStatus::kOk) << r.query.error;
  EXPECT_EQ(SortedRows(r.query.rows), SortedRows(ExpectedRows(s, want.rows)));
  if (::testing::Test::HasFailure()) std::fprintf(stderr, "%s", r.trace.c_str());
}

}  // namespace repartsim::model::testing::crash_matrix
