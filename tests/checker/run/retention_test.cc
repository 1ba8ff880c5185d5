// Goal: what a run forgets as it goes changes nothing it reports. The checker's oracle
// forgets the row versions no query still to be judged can see, the History packs the rows of
// the writes it forgot (run::PackWriteRows) and drops passed queries from the front of its
// log (run::RetireFrontQuery); a run with forgetting gives the same
// outcome, violations, notes (the writes and regions behind each row), loss probes, stories
// and trace as one that keeps everything (RunConfig::oracle_keeps_everything), and it does
// pack rows.
// Method: bundled scenarios whose greptime runs fail with explained rows, seeds 0 and 1, run
// both ways with the trace kept; the History is inspected after the last step.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::run {
namespace {
namespace retention_test {

struct Outcome {
  RunReport report;
  size_t writes = 0;
  size_t packed = 0;
  size_t passed_queries_without_sql = 0;
  uint64_t retired_queries = 0;
};

Outcome RunIt(const scenario::Scenario& s, uint64_t seed, bool keep_everything) {
  Outcome out;
  RunConfig config;
  config.seed = seed;
  config.profile = "greptime";
  config.keep_trace = true;
  config.oracle_keeps_everything = keep_everything;
  config.after_step = [&](const StepView& v) {
    const model::History& h = v.cluster.history();
    out.writes = h.writes.size();
    out.packed = 0;
    for (const model::WriteRecord& w : h.writes) out.packed += w.packed ? 1 : 0;
    out.retired_queries = h.retired_queries;
    out.passed_queries_without_sql = 0;
    for (const model::QueryRecord& q : h.queries) {
      out.passed_queries_without_sql += q.status == model::QueryStatus::kOk && q.sql.empty();
    }
    return true;
  };
  auto report = RunScenario(s, config);
  EXPECT_TRUE(report.ok());
  out.report = std::move(report).value();
  return out;
}

TEST(RetentionTest, ForgettingAndPackingChangeNothingARunReports) {
  size_t packed = 0;
  uint64_t retired = 0;
  for (const char* path : {"scenarios/greptime/adopted_files_outrank_staging_writes.yaml",
                           "scenarios/greptime/lease_race_new_region_ack.yaml",
                           "scenarios/greptime/compaction_lifts_old_values.yaml"}) {
    auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) + "/" + path);
    ASSERT_TRUE(s.ok()) << path;
    for (uint64_t seed : {0, 1}) {
      SCOPED_TRACE(std::string(path) + " seed " + std::to_string(seed));
      const Outcome lean = RunIt(s.value(), seed, false);
      const Outcome full = RunIt(s.value(), seed, true);
      EXPECT_NE(lean.report.outcome, run::Outcome::kPass);  // there are rows to explain
      EXPECT_EQ(lean.report.ToJson().dump(), full.report.ToJson().dump());
      ASSERT_EQ(lean.report.violations.size(), full.report.violations.size());
      for (size_t i = 0; i < lean.report.violations.size(); ++i) {
        EXPECT_EQ(lean.report.violations[i].notes, full.report.violations[i].notes);
        EXPECT_EQ(lean.report.violations[i].loss_probes, full.report.violations[i].loss_probes);
      }
      EXPECT_EQ(lean.report.trace_lines, full.report.trace_lines);
      ASSERT_EQ(lean.report.stories.size(), full.report.stories.size());
      for (size_t i = 0; i < lean.report.stories.size(); ++i) {
        EXPECT_EQ(lean.report.stories[i].cause, full.report.stories[i].cause);
        EXPECT_EQ(lean.report.stories[i].details, full.report.stories[i].details);
      }
      EXPECT_EQ(full.packed, 0u);
      EXPECT_EQ(full.retired_queries, 0u);
      EXPECT_GT(lean.passed_queries_without_sql + lean.retired_queries, 0u);
      retired += lean.retired_queries;
      packed += lean.packed;
    }
  }
  EXPECT_GT(packed, 20u);   // the comparison covered packed rows
  EXPECT_GT(retired, 20u);  // and retired queries
}

}  // namespace retention_test
}  // namespace
}  // namespace repartsim::run
