// Goal: pin the invariant names of docs/invariants.md, the text and JSON forms of a
// Violation, trace excerpts, and a Report that keeps every violation and classifies them.
// Method: render hand-built violations and compare whole strings / JSON values.
#include "checker/check/violation.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace repartsim::check {
namespace {
namespace violation_test {

Violation Dup() {
  return Violation{Invariant::kNoDup,
                   42,
                   1500,
                   {"duplicated (h='a'): returned 2 times"},
                   {"4398046511104(1024, 0)"},
                   "query `q` returned 1 duplicated row",
                   {"42 1500 scan region=4398046511104(1024, 0)"}};
}

TEST(InvariantTest, NamesMatchDesignAndRoundTrip) {
  const std::vector<std::pair<Invariant, std::string>> names = {
      {Invariant::kRule, "INV-RULE"},
      {Invariant::kOwn, "INV-OWN"},
      {Invariant::kNoOmit, "INV-NOOMIT"},
      {Invariant::kNoDup, "INV-NODUP"},
      {Invariant::kNoPhantom, "INV-NOPHANTOM"},
      {Invariant::kAck, "INV-ACK"},
      {Invariant::kMeta, "INV-META"},
      {Invariant::kLive, "INV-LIVE"},
      {Invariant::kReadAnomaly, "READ-ANOMALY"},
      {Invariant::kDdlRejected, "DDL-REJECTED"}};
  for (const auto& [invariant, name] : names) {
    EXPECT_EQ(InvariantName(invariant), name);
    EXPECT_EQ(ParseInvariant(name), invariant);
  }
  EXPECT_FALSE(ParseInvariant("INV-NODUPS").has_value());
}

TEST(ViolationTest, TextListsRegionsRowsAndTrace) {
  EXPECT_EQ(Dup().ToText(),
            "INV-NODUP at step 42 (t=1500 ms): query `q` returned 1 duplicated row\n"
            "  region: 4398046511104(1024, 0)\n"
            "  row: duplicated (h='a'): returned 2 times\n"
            "  trace: 42 1500 scan region=4398046511104(1024, 0)\n");
}

// Issue 53: one INV-LIVE printed 12 identical rejection lines. Lines that differ only in step,
// time and ids print once, counted; the JSON keeps every line.
TEST(ViolationTest, TextFoldsRepeatedTraceLines) {
  Violation v;
  v.invariant = Invariant::kLive;
  v.step = 20;
  v.message = "m";
  v.trace = {"10 5 n5 fe.write_done id=131 rejected error=\"e\"",
             "11 5 n5 fe.write_done id=132 rejected error=\"e\"",
             "19 9 n5 fe.write_done id=140 rejected error=\"e\"",
             "19 9 n5 fe.write_done id=141 rejected error=\"f\""};
  EXPECT_EQ(v.ToText(),
            "INV-LIVE at step 20 (t=0 ms): m\n"
            "  trace: 10 5 n5 fe.write_done id=131 rejected error=\"e\" (x3, last at step 19)\n"
            "  trace: 19 9 n5 fe.write_done id=141 rejected error=\"f\"\n");
  EXPECT_EQ(v.ToJson()["trace"].size(), 4u);
}

TEST(ViolationTest, JsonHasEveryField) {
  nlohmann::json expected = {{"invariant", "INV-NODUP"},
                             {"step", 42},
                             {"time_ms", 1500},
                             {"message", "query `q` returned 1 duplicated row"},
                             {"rows", {"duplicated (h='a'): returned 2 times"}},
                             {"regions", {"4398046511104(1024, 0)"}},
                             {"notes", nlohmann::json::array()},
                             {"trace", {"42 1500 scan region=4398046511104(1024, 0)"}}};
  EXPECT_EQ(Dup().ToJson(), expected);
}

TEST(ViolationTest, AttachTraceKeepsLastMatchingLines) {
  Violation v = Dup();
  std::vector<std::string> trace = {"1 region=4398046511104(1024, 0) open",
                                    "2 region=4398046511105(1024, 1) open", "3 write host=a",
                                    "4 region=4398046511104(1024, 0) flush",
                                    "5 region=4398046511104(1024, 0) scan"};
  AttachTrace(v, trace, 2);
  EXPECT_EQ(v.trace, (std::vector<std::string>{"4 region=4398046511104(1024, 0) flush",
                                               "5 region=4398046511104(1024, 0) scan"}));
  AttachTrace(v, trace, 10, {"host=a"});
  EXPECT_EQ(v.trace.size(), 4u);
  EXPECT_EQ(v.trace[1], "3 write host=a");
}

TEST(ViolationTest, AttachTraceIgnoresLinesAfterTheViolationStep) {
  Violation v = Dup();  // step 42
  std::vector<std::string> trace = {
      "41 1400 n1 flush 4398046511104(1024, 0)", "no step: 4398046511104(1024, 0)",
      "42 1500 n1 scan 4398046511104(1024, 0)", "43 1600 n1 scan 4398046511104(1024, 0)",
      "44 1700 n1 scan 4398046511104(1024, 0)"};
  AttachTrace(v, trace, 10);
  EXPECT_EQ(v.trace, (std::vector<std::string>{"41 1400 n1 flush 4398046511104(1024, 0)",
                                               "no step: 4398046511104(1024, 0)",
                                               "42 1500 n1 scan 4398046511104(1024, 0)"}));
}

TEST(ReportTest, AnUnjustifiedRefusalIsALivenessOutcomeRankedAfterInvLive) {
  EXPECT_EQ(InvariantName(Invariant::kAvail), "INV-AVAIL");
  EXPECT_EQ(ParseInvariant("INV-AVAIL"), Invariant::kAvail);
  EXPECT_TRUE(IsLivenessInvariant(Invariant::kAvail));
  EXPECT_TRUE(IsLivenessInvariant(Invariant::kLive));
  EXPECT_FALSE(IsLivenessInvariant(Invariant::kDdlRejected));
  Report report;
  report.Add(Violation{Invariant::kReadAnomaly, 1, 1, {}, {}, "r", {}});
  report.Add(Violation{Invariant::kAvail, 2, 2, {}, {}, "a", {}});
  EXPECT_FALSE(report.HasSafetyViolation());
  EXPECT_TRUE(report.HasLivenessViolation());
  report.Add(Violation{Invariant::kLive, 3, 3, {}, {}, "l", {}});
  report.Add(Violation{Invariant::kDdlRejected, 4, 4, {}, {}, "d", {}});
  EXPECT_TRUE(report.HasSafetyViolation());
  std::vector<Invariant> order;
  for (const Violation& v : report.Sorted()) order.push_back(v.invariant);
  EXPECT_EQ(order, (std::vector<Invariant>{Invariant::kDdlRejected, Invariant::kLive,
                                           Invariant::kAvail, Invariant::kReadAnomaly}));
}

TEST(ReportTest, KeepsAllViolationsAndSeparatesAnomaliesAndLiveness) {
  Report report;
  EXPECT_EQ(report.ToText(), "violations: 0\n");
  report.Add(Violation{Invariant::kReadAnomaly, 1, 1, {}, {}, "a", {}});
  EXPECT_FALSE(report.HasSafetyViolation());
  report.Add(Violation{Invariant::kLive, 2, 2, {}, {}, "b", {}});
  EXPECT_FALSE(report.HasSafetyViolation());
  EXPECT_TRUE(report.HasLivenessViolation());
  report.Add(std::vector<Violation>{Dup(), Dup()});
  report.Add(std::optional<Violation>());
  EXPECT_TRUE(report.HasSafetyViolation());
  EXPECT_EQ(report.violations().size(), 4u);
  EXPECT_EQ(report.Count(Invariant::kNoDup), 2u);
  std::string text = report.ToText();
  EXPECT_EQ(text.substr(text.rfind("violations:")),
            "violations: 4 (INV-NODUP 2, INV-LIVE 1, READ-ANOMALY 1)\n");
  nlohmann::json json = report.ToJson();
  EXPECT_EQ(json["counts"],
            (nlohmann::json{{"INV-NODUP", 2}, {"INV-LIVE", 1}, {"READ-ANOMALY", 1}}));
  EXPECT_EQ(json["violations"].size(), 4u);
  EXPECT_EQ(json["violations"][2]["invariant"], "INV-NODUP");
}

TEST(ReportTest, SortedPutsTheDecisiveViolationFirst) {
  // Before: `run` listed violations in step order, so tolerated read anomalies pushed the
  // INV-ACK that failed the run behind "... and 14 more".
  Report report;
  for (uint64_t step = 1; step <= 3; ++step) {
    report.Add(Violation{Invariant::kReadAnomaly, step, 1, {}, {}, "anomaly", {}});
  }
  report.Add(Violation{Invariant::kLive, 4, 1, {}, {}, "stuck", {}});
  report.Add(Violation{Invariant::kDdlRejected, 5, 1, {}, {}, "rejected", {}});
  report.Add(Violation{Invariant::kAck, 9, 1, {}, {}, "lost", {}});
  report.Add(Violation{Invariant::kNoOmit, 7, 1, {}, {}, "omitted", {}});
  std::vector<Invariant> order;
  for (const Violation& v : report.Sorted()) order.push_back(v.invariant);
  EXPECT_EQ(order,
            (std::vector<Invariant>{Invariant::kAck, Invariant::kNoOmit, Invariant::kDdlRejected,
                                    Invariant::kLive, Invariant::kReadAnomaly,
                                    Invariant::kReadAnomaly, Invariant::kReadAnomaly}));
  EXPECT_TRUE(report.HasSafetyViolation());

  // Twenty wrong query results do not hide the lost row found at quiescence.
  Report many;
  for (uint64_t step = 1; step <= 20; ++step) {
    many.Add(Violation{Invariant::kNoOmit, step, 1, {}, {}, "omitted", {}});
  }
  many.Add(Violation{Invariant::kAck, 30, 1, {}, {}, "lost", {}});
  many.Add(Violation{Invariant::kReadAnomaly, 2, 1, {}, {}, "anomaly", {}});
  const std::vector<Violation> sorted = many.Sorted();
  EXPECT_EQ(sorted[0].invariant, Invariant::kAck);
  EXPECT_EQ(sorted[1].invariant, Invariant::kNoOmit);
  EXPECT_EQ(sorted[1].step, 1u);
  EXPECT_EQ(sorted[2].invariant, Invariant::kNoOmit);
  EXPECT_EQ(sorted[2].step, 2u);
  EXPECT_EQ(sorted.back().invariant, Invariant::kReadAnomaly);
}

}  // namespace violation_test
}  // namespace
}  // namespace repartsim::check
