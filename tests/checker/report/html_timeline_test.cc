// Goal: the timeline page (tools/repartsim/html_timeline.h) is a pure function of the run:
// the same run gives the same bytes and another run other bytes; trace text cannot break out
// of the page (HTML entities in the markup, \u003c escapes in the data block); there is one
// lane per node, procedure bars carry GreptimeDB's state names, messages become arrows with
// their faults, and a violation's row links the write that acknowledged it.
// Method: RenderTimelineHtml on fixed trace lines (exact attributes and counts), and on a
// bundled scenario run twice.
#include "checker/report/html_timeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "checker/report/html_text.h"
#include "checker/report/timeline.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::report {
namespace {
namespace html_timeline_test {

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TimelineRun SmallRun() {
  TimelineRun run;
  run.title = "small";
  run.path = "small.yaml";
  run.profile = "greptime";
  run.summary_line = "seed=0 steps=9 prng_draws=0 trace_hash=0x0 outcome=safety";
  run.node_names = TimelineNodeNames(2, 1);  // metasrv dn1 dn2 fe1
  run.trace_lines = {
      "0 0 n0 ms.state procedure=2 type=Repartition from=RepartitionStart to=AllocateRegion "
      "status=Running",
      "1 5 n0 send id=1 msg=RegionRequest to=dn1",
      "2 6 n1 recv RegionRequest from=metasrv id=1",
      "2 6 n1 dn.region_op EnterStaging 4398046511104(1024, 0) Ok",
      "3 7 - op insert id=7 fe=fe1 table=1024 rows=2 values=\"('h1', 2, 2, 7), ('h2', 3, 3, 4)\"",
      "4 8 n3 send id=2 msg=WriteRequest to=dn2",
      "4 8 n3 net.drop id=2 msg=WriteRequest from=fe1 to=dn2 cause=fault",
      "5 9 n3 fe.write_done id=7 acked",
      "6 10 n0 ms.state procedure=2 type=Repartition from=AllocateRegion to=Dispatch "
      "status=Running",
      "7 11 n2 crash dn2",
      "8 12 n0 ms.state procedure=2 type=Repartition from=Dispatch to=RepartitionEnd status=Done",
  };
  check::Violation v;
  v.invariant = check::Invariant::kAck;
  v.step = 8;
  v.time_ms = 12;
  v.message = "1 acknowledged row is missing";
  v.rows = {"missing (host='h1', ts=2, v=2, a=7)"};
  v.notes = {
      "row (host='h1', ts=2, v=2, a=7): last accepted by region 4398046511104(1024, 0) "
      "on dn1 at step 4; the first event after that which dropped, replaced or lost that "
      "region's data: `7 11 n2 crash dn2`"};
  v.trace = {run.trace_lines[4], run.trace_lines[7]};
  run.violations = {v};
  return run;
}

TEST(HtmlTimelineTest, OneLanePerNodePlusTheClientLane) {
  const std::string page = RenderTimelineHtml(SmallRun());
  for (const char* node : {"metasrv", "dn1", "dn2", "fe1", "client"}) {
    EXPECT_EQ(Count(page, std::string("<g class=\"lane\" data-node=\"") + node + "\">"), 1u)
        << node;
  }
  EXPECT_EQ(Count(page, "<g class=\"lane\""), 5u);
  EXPECT_NE(page.find(">fe1 (n3)</text>"), std::string::npos);
}

TEST(HtmlTimelineTest, ProcedureBarsCarryTheStateNames) {
  const std::string page = RenderTimelineHtml(SmallRun());
  EXPECT_EQ(Count(page, " bar\""), 3u);
  EXPECT_NE(
      page.find("<rect class=\"st st-Running bar\" x=\"0\" y=\"46\" width=\"6\" height=\"14\" "
                "data-i=\"0\" data-state=\"AllocateRegion\"/>"),
      std::string::npos)
      << page.substr(page.find("<g id=\"zoom\""), 1200);
  EXPECT_NE(page.find("data-state=\"Dispatch\""), std::string::npos);
  EXPECT_NE(page.find("class=\"st st-Done bar\" x=\"8\""), std::string::npos);
  EXPECT_NE(page.find("<g class=\"proc\" data-node=\"p2\">"), std::string::npos);
  EXPECT_NE(page.find(">Repartition #2</text>"), std::string::npos);
}

TEST(HtmlTimelineTest, MessagesAreArrowsWithTheirFaults) {
  const std::string page = RenderTimelineHtml(SmallRun());
  // The RegionRequest goes from the metasrv lane (centre y 99) at step 1 to dn1 (129) at 2;
  // the dropped WriteRequest stays on fe1's lane (189) and ends half a lane lower.
  EXPECT_NE(page.find("<path class=\"m rg\" d=\"M1.5 99L2.5 129\" data-i=\"1 2\"/>"),
            std::string::npos)
      << page.substr(page.find("<g id=\"zoom\""), 1500);
  EXPECT_NE(page.find("<path class=\"m wr drop\" d=\"M4.5 189L4.5 202\" data-i=\"5 6\"/>"),
            std::string::npos);
  EXPECT_NE(page.find("<line class=\"mk crash\" x1=\"7.5\""), std::string::npos);
}

TEST(HtmlTimelineTest, ALostRowLinksTheWriteThatAcknowledgedItAndTheLoss) {
  const std::string page = RenderTimelineHtml(SmallRun());
  EXPECT_NE(page.find("<li class=\"lost\" data-write=\"4\" data-ack=\"7\" data-loss=\"9\">"
                      "missing (host=&#39;h1&#39;, ts=2, v=2, a=7)</li>"),
            std::string::npos);
  EXPECT_NE(page.find("<line class=\"vl\" id=\"vmark-0\" data-step=\"8\" data-v=\"0\" "
                      "x1=\"8.5\" x2=\"8.5\""),
            std::string::npos);
  EXPECT_NE(page.find("<line class=\"mk wd wd-acked\" x1=\"5.5\""), std::string::npos);
}

// Also: the query a note names ("query 3 from fe1 ...") is linked from every row.
TEST(HtmlTimelineTest, ARowIsFoundInAMultiRowInsertEvenWithParenthesesInAString) {
  TimelineRun run = SmallRun();
  run.trace_lines.push_back(
      "9 13 - op insert id=8 fe=fe1 table=1024 rows=2 values=\"('a), (b', 1, 2, 3), ('h1', 2, 2, "
      "7)\"");
  run.trace_lines.push_back("10 14 n3 fe.write_done id=8 acked");
  run.trace_lines.push_back(
      "11 15 - op insert id=9 fe=fe1 table=1024 rows=1 values=\"('a', 1, "
      "2, 3)\"");
  run.trace_lines.push_back("12 16 n3 fe.write_done id=9 rejected");
  run.trace_lines.push_back("13 17 - op query id=3 fe=fe1 table=1024 sql=\"SELECT * FROM cpu\"");
  run.trace_lines.push_back("14 18 n3 fe.query_done id=3 rows=1");
  run.violations[0].notes.insert(run.violations[0].notes.begin(),
                                 "query 3 from fe1 (issued at step 13, completed at step 14)");
  run.violations[0].rows = {"missing (host='h1', ts=2, v=2, a=7)",
                            "missing (host='a), (b', ts=1, v=2, a=3)",
                            "missing (host='zz', ts=1, v=2, a=3)"};
  const std::string page = RenderTimelineHtml(run);
  // Written twice (ids 7 and 8), acknowledged twice.
  EXPECT_NE(page.find("<li class=\"lost\" data-write=\"4 11\" data-ack=\"7 12\" "
                      "data-loss=\"9\" data-query=\"15 16\">missing (host=&#39;h1&#39;"),
            std::string::npos);
  EXPECT_NE(page.find("<li class=\"lost\" data-write=\"11\" data-ack=\"12\" data-loss=\"\" "
                      "data-query=\"15 16\">"
                      "missing (host=&#39;a), (b&#39;"),
            std::string::npos);
  EXPECT_NE(page.find("<li class=\"lost\" data-write=\"\" data-ack=\"\" data-loss=\"\" "
                      "data-query=\"15 16\">"
                      "missing (host=&#39;zz&#39;"),
            std::string::npos);
}

// A wrong value ("...; expected (...)") links the write of the stale value and the write of
// the value the read should have returned, with what lost each (issue 36: before, neither).
TEST(HtmlTimelineTest, AStaleValueRowLinksTheStaleAndTheExpectedWrite) {
  TimelineRun run = SmallRun();
  run.trace_lines.push_back(
      "9 13 - op insert id=8 fe=fe1 table=1024 rows=1 values=\"('h1', 2, 9, 7)\"");
  run.trace_lines.push_back("10 14 n3 fe.write_done id=8 acked");
  run.violations[0].rows = {
      "wrong value (host='h1', ts=2, v=2, a=7): stale value superseded before the query "
      "started; expected (host='h1', ts=2, v=9, a=7)"};
  run.violations[0].notes.push_back(
      "row (host='h1', ts=2, v=9, a=7): last accepted by region 4398046511104(1024, 0) on dn1 "
      "at step 10; the first event after that which dropped, replaced or lost that region's "
      "data: `7 11 n2 crash dn2`");
  const std::string page = RenderTimelineHtml(run);
  EXPECT_NE(page.find("<li class=\"lost\" data-write=\"4 11\" data-ack=\"7 12\" "
                      "data-loss=\"9\">wrong value (host=&#39;h1&#39;, ts=2, v=2, a=7)"),
            std::string::npos);
}

TEST(HtmlTimelineTest, TraceTextIsEscapedInTheMarkupAndInTheDataBlock) {
  TimelineRun run = SmallRun();
  run.title = "a <b> & 'c'";
  run.trace_lines.push_back(
      "9 13 - op query id=3 fe=fe1 table=1024 sql=\"SELECT '</script><img src=x>' & 1\"");
  run.violations[0].message = "rows <missing> & \"quoted\"";
  const std::string page = RenderTimelineHtml(run);
  EXPECT_NE(page.find("<h1>a &lt;b&gt; &amp; &#39;c&#39;</h1>"), std::string::npos);
  EXPECT_NE(page.find("<p>rows &lt;missing&gt; &amp; &quot;quoted&quot;</p>"), std::string::npos);
  EXPECT_NE(page.find("\"9 13 - op query id=3 fe=fe1 table=1024 sql=\\\"SELECT '\\u003c/script"
                      "\\u003e\\u003cimg src=x\\u003e' \\u0026 1\\\"\""),
            std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(Count(page, "</script>"), 2u);  // the data block's and the script's own
  EXPECT_EQ(html::Escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  // Before: a control character in a scenario name made the JUnit XML not well-formed.
  EXPECT_EQ(html::Escape("a\x01"
                         "b\x1b[0m\tc\nd\x7f\xc3\xa9"),
            "a\\x01b\\x1b[0m\tc\nd\\x7f\xc3\xa9");
}

TEST(HtmlTimelineTest, ThePageFetchesNothing) {
  const std::string page = RenderTimelineHtml(SmallRun());
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find(" src="), std::string::npos);
  EXPECT_NE(page.find("content=\"default-src 'none'; script-src 'unsafe-inline'; "
                      "style-src 'unsafe-inline'\""),
            std::string::npos);
}

TEST(HtmlTimelineTest, TheSameRunGivesTheSameBytesAndAnotherRunOthers) {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                      "/scenarios/greptime/lease_race_new_region_ack.yaml");
  ASSERT_TRUE(s.ok()) << s.error().Format();
  run::RunConfig config;
  config.keep_trace = true;
  auto first = run::RunScenario(s.value(), config);
  auto second = run::RunScenario(s.value(), config);
  config.seed = 1;
  auto other = run::RunScenario(s.value(), config);
  ASSERT_TRUE(first.ok() && second.ok() && other.ok());
  const std::string page = RenderTimelineHtml(MakeTimelineRun(s.value(), first.value()));
  EXPECT_EQ(page, RenderTimelineHtml(MakeTimelineRun(s.value(), second.value())));
  EXPECT_NE(page, RenderTimelineHtml(MakeTimelineRun(s.value(), other.value())));
  EXPECT_EQ(Count(page, "<g class=\"lane\""), 7u);  // metasrv, 3 datanodes, 2 frontends, client
  EXPECT_GE(Count(page, "<li class=\"lost\""), 1u);
}

TEST(HtmlTimelineModelTest, TraceLinesAndFieldsParse) {
  auto e = ParseTraceLine("12 3400 n4 fe.write_done id=1 acked", 5);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->line, 5u);
  EXPECT_EQ(e->step, 12u);
  EXPECT_EQ(e->time_ms, 3400);
  EXPECT_EQ(e->node, 4);
  EXPECT_EQ(e->kind, "fe.write_done");
  EXPECT_EQ(e->detail, "id=1 acked");
  EXPECT_EQ(ParseTraceLine("12 3400 - op", 0)->node, -1);
  EXPECT_FALSE(ParseTraceLine("x 1 n0 send", 0).has_value());
  EXPECT_FALSE(ParseTraceLine("1 1 q0 send", 0).has_value());
  EXPECT_EQ(DetailField("region=4398046511104(1024, 0) to=1", "region"), "4398046511104(1024, 0)");
  EXPECT_EQ(DetailField("fe=fe1 sql=\"SELECT \\\"a b\\\"\" x=1", "sql"), "\"SELECT \\\"a b\\\"\"");
  EXPECT_EQ(DetailField("xid=3 id=4", "id"), "4");
  EXPECT_EQ(DetailField("id=4", "to"), "");
  EXPECT_EQ(DetailWord("EnterStaging 4398046511104(1024, 0) Ok", 1), "4398046511104(1024, 0)");
  EXPECT_EQ(DetailWord("EnterStaging 4398046511104(1024, 0) Ok", 2), "Ok");
  EXPECT_EQ(DetailWord("EnterStaging 4398046511104(1024, 0) Ok", 3), "");
}

}  // namespace html_timeline_test
}  // namespace
}  // namespace repartsim::report
