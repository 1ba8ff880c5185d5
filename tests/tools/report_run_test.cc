// Goal: trace JSON lines carry typed fields, not only wrapped free text (issue 18 item 6, the
// JSONL part): key=value words become fields (integers as numbers), other words `args`, a
// region id stays one word. Method: TraceLineJson on fixed lines, exact JSON.
#include "tools/repartsim/report_run.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace repartsim::tools {
namespace {

TEST(TraceLineJsonTest, KeyValueWordsAreTypedFields) {
  const nlohmann::json j =
      nlohmann::json::parse(TraceLineJson("34 1004 n4 fe.write_done id=1 acked"));
  EXPECT_EQ(j["step"], 34);
  EXPECT_EQ(j["time_ms"], 1004);
  EXPECT_EQ(j["node"], "n4");
  EXPECT_EQ(j["kind"], "fe.write_done");
  EXPECT_EQ(j["detail"], "id=1 acked");
  EXPECT_EQ(j["fields"], (nlohmann::json{{"id", 1}}));
  EXPECT_EQ(j["args"], (nlohmann::json{"acked"}));
}

TEST(TraceLineJsonTest, RegionIdsStayOneWordAndNegativesAreNumbers) {
  const nlohmann::json j = nlohmann::json::parse(TraceLineJson(
      "3 1 n1 dn.region_op CreateRegion 4398046511104(1024, 0) Ok delta=-5 from=metasrv"));
  EXPECT_EQ(j["args"], (nlohmann::json{"CreateRegion", "4398046511104(1024, 0)", "Ok"}));
  EXPECT_EQ(j["fields"], (nlohmann::json{{"delta", -5}, {"from", "metasrv"}}));
  const nlohmann::json bare = nlohmann::json::parse(TraceLineJson("0 0 - op create_table"));
  EXPECT_EQ(bare["fields"], nlohmann::json::object());
  EXPECT_EQ(bare["args"], (nlohmann::json{"create_table"}));
}

}  // namespace
}  // namespace repartsim::tools
