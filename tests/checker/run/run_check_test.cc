// Goal: the run-level checks added to the runner report exactly: every ownership breach the
// cluster recorded at acceptance becomes one INV-OWN violation at its step; a broken rule
// published mid-run is INV-RULE at the step it was published (not repeated at quiescence);
// liveness probes are counted, all acknowledged on a correct run, and a probe that cannot
// be written is the exact INV-LIVE message; the trace hash covers the data outcome (a switch
// that changes which rows survive but no event changes the hash, through the last line).
// Method: fixed seeds of bundled scenarios (each run well under a second), with the trace
// kept so violations can be matched against the trace lines that logged them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::run {
namespace {
namespace run_check_test {

RunReport RunSeed(const std::string& file, const char* profile, uint64_t seed,
                  std::vector<std::pair<std::string, bool>> rules = {}) {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/" + file);
  EXPECT_TRUE(s.ok()) << s.error().Format();
  RunConfig config;
  config.seed = seed;
  config.profile = profile;
  config.keep_trace = true;
  config.rules = std::move(rules);
  auto report = RunScenario(s.value(), config);
  EXPECT_TRUE(report.ok());
  return report.value();
}

std::vector<const check::Violation*> Of(const RunReport& r, check::Invariant invariant,
                                        const std::string& needle = "") {
  std::vector<const check::Violation*> out;
  for (const check::Violation& v : r.violations) {
    if (v.invariant == invariant && v.message.find(needle) != std::string::npos) {
      out.push_back(&v);
    }
  }
  return out;
}

uint64_t LeadingNumber(const std::string& line) {
  return std::stoull(line.substr(0, line.find(' ')));
}

// Under greptime a lease expiry after EnterStaging loses the staged rows unless
// durable-staging keeps them; the two runs log the same events. Before the run.data line the
// two trace hashes were equal, so a determinism check could not tell the runs apart.
// The numbers after `label` in `text` (0 when absent).
uint64_t NumberAfter(const std::string& text, const std::string& label) {
  const size_t at = text.find(label);
  if (at == std::string::npos) return 0;
  return std::strtoull(text.c_str() + at + label.size(), nullptr, 10);
}

TEST(RunCheckTest, AWriteNoteNamesTheAcceptanceOfThatWriteNotOfEqualValues) {
  // Before: the region and step a note named were the last acceptance of equal row values,
  // so a write acked at step 314 was said to be accepted at step 1028 (another write of the
  // same values). A write is accepted between its issue and its acknowledgement.
  const RunReport r = RunSeed("greptime/adopted_files_outrank_staging_writes.yaml", "greptime", 0);
  size_t checked = 0;
  for (const check::Violation& v : r.violations) {
    for (const std::string& note : v.notes) {
      if (note.rfind("write ", 0) != 0 || note.find(", acked at step ") == std::string::npos ||
          note.find("(accepted at step ") == std::string::npos) {
        continue;
      }
      const uint64_t issued = NumberAfter(note, "(issued at step ");
      const uint64_t acked = NumberAfter(note, ", acked at step ");
      const uint64_t accepted = NumberAfter(note, "(accepted at step ");
      EXPECT_LE(issued, accepted) << note;
      EXPECT_LE(accepted, acked) << note;
      ++checked;
    }
  }
  // Every acked write note of the run (before: 10 outside; 123 before write 269, issued after
  // the query of its violation, was no longer named there).
  EXPECT_EQ(checked, 122u);
}

// Issue 53: the INV-NOOMIT of query 25 (completed at step 733) listed write 269, issued at
// step 1048, among the writes of its rows. A query's write notes name only writes issued
// before it completed.
TEST(RunCheckTest, AQueryNamesOnlyWritesIssuedBeforeItCompleted) {
  const RunReport r = RunSeed("greptime/adopted_files_outrank_staging_writes.yaml", "greptime", 0);
  size_t notes = 0;
  for (const check::Violation* v : Of(r, check::Invariant::kNoOmit)) {
    for (const std::string& note : v->notes) {
      if (note.rfind("write ", 0) != 0) continue;
      ++notes;
      EXPECT_LE(NumberAfter(note, "(issued at step "), v->step) << note;
    }
  }
  EXPECT_GT(notes, 10u);
}

// Issue 53: INV-META printed the raw 64-bit expression versions ("with expression version
// 8034692573255843343 but routed with 17049039589619737785"); it names the expressions.
TEST(RunCheckTest, AnExpressionVersionMismatchNamesTheExpressions) {
  const RunReport r = RunSeed("greptime/rollback_after_applied_manifest.yaml", "greptime", 0);
  const auto meta = Of(r, check::Invariant::kMeta);
  ASSERT_EQ(meta.size(), 1u);
  EXPECT_EQ(meta[0]->message,
            "region 4398046511104(1024, 0) is open on node 3 with expression `a < 5` but routed "
            "with expression `a < 10`");
}

TEST(RunCheckTest, TraceHashCoversTheDataOutcome) {
  const char* file = "crash/lease_expiry_after_enter_staging.yaml";
  RunReport off = RunSeed(file, "greptime", 0, {{"durable-staging", false}});
  RunReport on = RunSeed(file, "greptime", 0, {{"durable-staging", true}});
  ASSERT_EQ(off.trace_lines.size(), on.trace_lines.size());
  ASSERT_GE(off.trace_lines.size(), 2u);
  const size_t last = off.trace_lines.size() - 1;
  for (size_t i = 0; i < last; ++i) ASSERT_EQ(off.trace_lines[i], on.trace_lines[i]) << i;
  EXPECT_EQ(off.trace_lines[last].find(std::to_string(off.summary.steps) + " "), 0u);
  EXPECT_NE(off.trace_lines[last].find(" - run.data data=0x"), std::string::npos);
  EXPECT_NE(off.trace_lines[last], on.trace_lines[last]);
  EXPECT_NE(off.summary.trace_hash, on.summary.trace_hash);
  EXPECT_EQ(off.summary.steps, on.summary.steps);
}

TEST(RunCheckTest, EveryAcceptedOutsideBreachIsOneOwnViolationAtItsStep) {
  const RunReport r = RunSeed("greptime/null_not_equal_routing.yaml", "greptime", 1);
  std::vector<std::string> breaches;
  for (const std::string& line : r.trace_lines) {
    if (line.find(" dn.accepted_outside ") != std::string::npos) breaches.push_back(line);
  }
  std::vector<const check::Violation*> own = Of(r, check::Invariant::kOwn, " accepted ");
  ASSERT_EQ(own.size(), breaches.size());
  ASSERT_EQ(own.size(), 42u);  // 41 workload writes and one probe (host NULL)
  for (size_t i = 0; i < own.size(); ++i) {
    EXPECT_EQ(own[i]->step, LeadingNumber(breaches[i])) << breaches[i];
    const std::string rows = breaches[i].substr(breaches[i].find("rows=") + 5);
    EXPECT_EQ(own[i]->rows.size(), std::stoull(rows)) << breaches[i];
  }
  EXPECT_EQ(own[0]->ToText().substr(0, own[0]->ToText().find("  trace:")),
            "INV-OWN at step 27 (t=1003 ms): region 4398046511105(1024, 1) accepted 1 row "
            "outside its expression host <> 'h0'\n"
            "  region: 4398046511105(1024, 1)\n"
            "  row: (host=NULL, ts=1, v=1, a=3)\n");
  // The excerpt ends at the violation's own step.
  EXPECT_EQ(own[0]->trace.back(), breaches[0]);
}

TEST(RunCheckTest, BrokenRuleIsReportedAtThePublishingStepOnce) {
  const RunReport r = RunSeed("multi_group/two_group_repartition.yaml", "greptime", 0);
  std::vector<const check::Violation*> rule = Of(r, check::Invariant::kRule);
  ASSERT_EQ(rule.size(), 1u);
  EXPECT_EQ(rule[0]->step, 196u);  // the parent procedure panicked (P1) and ended there
  EXPECT_EQ(rule[0]->time_ms, 4003);
  EXPECT_LT(rule[0]->step, r.heal_step);
  EXPECT_EQ(rule[0]->message,
            "published rule of table cpu is not complete and disjoint: Checkpoint `a=5` is "
            "overlapped");
  bool panicked = false;
  for (const std::string& line : r.trace_lines) {
    panicked = panicked || (LeadingNumber(line) == 196 &&
                            line.find("ms.procedure procedure=2 panic") != std::string::npos);
  }
  EXPECT_TRUE(panicked);
}

TEST(RunCheckTest, CorrectRunPassesWithEveryProbeAcknowledged) {
  const RunReport r = RunSeed("multi_group/two_group_repartition.yaml", "reference", 0);
  EXPECT_EQ(r.outcome, Outcome::kPass) << r.SummaryLine();
  EXPECT_TRUE(r.quiescent);
  EXPECT_EQ(r.history.probes, 39u);  // distinct (a) values written
  EXPECT_EQ(r.history.probes_acked, 39u);
  EXPECT_EQ(r.history.probe_writes, 39u);
  EXPECT_EQ(r.probe_write_first, r.history.writes - 39 + 1);
}

// greptime: the frontend that ignored invalidations keeps its pre-split route after the heal
// releases it, and a partition-expr version mismatch does not make it refetch, so rows it
// routes to region 0 are refused on every attempt.
TEST(RunCheckTest, ProbeNeverAcknowledgedIsRowNotWritable) {
  const RunReport r = RunSeed("stale_cache/stale_frontend_during_split.yaml", "greptime", 9);
  std::vector<const check::Violation*> live = Of(r, check::Invariant::kLive);
  ASSERT_EQ(live.size(), 4u);
  EXPECT_EQ(r.history.probes, 30u);
  EXPECT_EQ(r.history.probes_acked, 26u);
  EXPECT_EQ(r.history.probe_writes, 38u);  // 4 probes x 3 attempts + 26 x 1
  EXPECT_EQ(live[0]->ToText().substr(0, live[0]->ToText().find("  trace:")),
            "INV-LIVE at step 965 (t=28009 ms): row of region 4398046511104(1024, 0) is not "
            "writable 170 steps after faults healed at step 795: its last write attempt was "
            "rejected: Partition expr version mismatch for region 4398046511104(1024, 0): request "
            "17049039589619737785, "
            "expected 8034692573255843343\n"
            "  region: 4398046511104(1024, 0)\n"
            "  row: (host='h1', ts=85, v=67, a=2)\n");
  // The region named is the final route's region covering the row (a=9: the split-off one).
  EXPECT_EQ(live[1]->regions, std::vector<std::string>{"4398046511107(1024, 3)"});
  EXPECT_EQ(live[1]->rows, std::vector<std::string>{"(host='h3', ts=86, v=23, a=9)"});
}

}  // namespace run_check_test
}  // namespace
}  // namespace repartsim::run
