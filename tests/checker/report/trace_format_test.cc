// Goal: trace JSON lines carry typed fields, not wrapped free text (issue 18 item 6, the JSONL
// part): key=value words become fields (integers as numbers, quoted text unescaped), a kind's
// leading bare words are named, a region id stays one word, and only free text without
// structure is `text`. Method: TraceLineJson on fixed lines, exact JSON.
#include "checker/report/trace_format.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace repartsim::report {
namespace {
namespace trace_format_test {

TEST(TraceLineJsonTest, KeyValueWordsAreTypedFieldsAndLeadingWordsAreNamed) {
  const nlohmann::json j =
      nlohmann::json::parse(TraceLineJson("34 1004 n4 fe.write_done id=1 acked"));
  EXPECT_EQ(j["step"], 34);
  EXPECT_EQ(j["time_ms"], 1004);
  EXPECT_EQ(j["node"], "n4");
  EXPECT_EQ(j["kind"], "fe.write_done");
  EXPECT_EQ(j["fields"], (nlohmann::json{{"id", 1}, {"status", "acked"}}));
  EXPECT_FALSE(j.contains("detail"));  // no free text wrapped as one string
  EXPECT_FALSE(j.contains("text"));
  const nlohmann::json recv =
      nlohmann::json::parse(TraceLineJson("5 3 n1 recv WriteRequest from=fe1 id=12"));
  EXPECT_EQ(recv["fields"], (nlohmann::json{{"msg", "WriteRequest"}, {"from", "fe1"}, {"id", 12}}));
}

TEST(TraceLineJsonTest, RegionIdsStayOneWordAndNegativesAreNumbers) {
  const nlohmann::json j = nlohmann::json::parse(TraceLineJson(
      "3 1 n1 dn.region_op CreateRegion 4398046511104(1024, 0) Ok delta=-5 from=metasrv"));
  EXPECT_EQ(j["fields"], (nlohmann::json{{"op", "CreateRegion"},
                                         {"region", "4398046511104(1024, 0)"},
                                         {"code", "Ok"},
                                         {"delta", -5},
                                         {"from", "metasrv"}}));
  const nlohmann::json bare = nlohmann::json::parse(TraceLineJson("0 0 - op create_table"));
  EXPECT_EQ(bare["fields"], (nlohmann::json{{"op", "create_table"}}));
}

TEST(TraceLineJsonTest, QuotedTextIsOneUnescapedValue) {
  const nlohmann::json j = nlohmann::json::parse(TraceLineJson(
      R"(40 1200 - op query id=3 fe=fe1 table=1024 sql="SELECT * FROM t WHERE h = \"x\"")"));
  EXPECT_EQ(j["fields"], (nlohmann::json{{"op", "query"},
                                         {"id", 3},
                                         {"fe", "fe1"},
                                         {"table", 1024},
                                         {"sql", "SELECT * FROM t WHERE h = \"x\""}}));
  // A text cut at the trace's capacity has no closing quote: read to the end.
  const nlohmann::json cut =
      nlohmann::json::parse(TraceLineJson(R"(1 1 n4 fe.query_done id=2 error="Region not fou~)"));
  EXPECT_EQ(cut["fields"]["error"], "Region not fou~");
}

TEST(TraceLineJsonTest, FreeTextWithoutStructureIsText) {
  const nlohmann::json j = nlohmann::json::parse(
      TraceLineJson("301 4100 n0 ms.procedure procedure=2 retry later: region busy"));
  EXPECT_EQ(j["fields"], (nlohmann::json{{"procedure", 2}}));
  EXPECT_EQ(j["text"], "retry later: region busy");
  const nlohmann::json rule = nlohmann::json::parse(
      TraceLineJson("9 3000 n4 net.release WriteRequest fe1->dn3 (safety phase ended) id=7"));
  EXPECT_EQ(rule["fields"],
            (nlohmann::json{{"msg", "WriteRequest"}, {"link", "fe1->dn3"}, {"id", 7}}));
  EXPECT_EQ(rule["text"], "(safety phase ended)");
}

TEST(TraceTextTest, EveryLineEndsInANewlineAsTextOrJson) {
  const std::vector<std::string> lines = {"0 0 - op create_table", "1 5 n1 recv Ping id=3"};
  EXPECT_EQ(TraceText(lines, "text"), "0 0 - op create_table\n1 5 n1 recv Ping id=3\n");
  EXPECT_EQ(TraceText(lines, "jsonl"),
            TraceLineJson(lines[0]) + "\n" + TraceLineJson(lines[1]) + "\n");
  EXPECT_EQ(TraceText({}, "jsonl"), "");
  EXPECT_EQ(TracePositionalNames("dn.region_op"),
            (std::vector<std::string_view>{"op", "region", "code"}));
  EXPECT_TRUE(TracePositionalNames("ms.procedure").empty());
}

}  // namespace trace_format_test
}  // namespace
}  // namespace repartsim::report
