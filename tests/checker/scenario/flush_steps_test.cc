// Goal: a scripted `flush: writable` flushes every writable region when it runs, the regions
// a split made included, while `flush: all` flushes only the regions the table was created
// with (each at its first leader).
// Method: an inline scenario splits region 0 at 2 s, writes a row into each new region, and
// flushes at 6 s with one form or the other; the trace's dn.flush lines are counted.
#include <gtest/gtest.h>

#include <string>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/checker/scenario/traced_run.h"

namespace repartsim::scenario {
namespace {
namespace flush_steps_test {

run::RunReport RunWithFlush(const std::string& flush) {
  const std::string yaml = R"yaml(name: flush-steps
cluster: {datanodes: 2, frontends: 1}
table: |
  CREATE TABLE cpu (host STRING, ts TIMESTAMP TIME INDEX, v BIGINT, a INT, PRIMARY KEY (host, a))
  PARTITION ON COLUMNS (a) (a < 10, a >= 10)
steps:
  - {at_ms: 2000, sql: "ALTER TABLE cpu SPLIT PARTITION (a < 10) INTO (a < 5, a >= 5 AND a < 10)"}
  - {at_ms: 5000, sql: "INSERT INTO cpu VALUES ('h0', 1, 1, 3), ('h0', 1, 1, 7), ('h0', 1, 1, 15)"}
  - {at_ms: 6000, flush: )yaml" +
                           flush + R"yaml(}
limits: {time_ms_max: 8000}
expect: {reference: pass}
)yaml";
  return testing::RunTraced(ParseScenario(yaml, "flush_steps.yaml"), "reference");
}

size_t Flushed(const run::RunReport& r, const std::string& region) {
  return testing::CountLines(r, " dn.flush " + region + " Ok");
}

TEST(FlushStepsTest, WritableFlushesTheRegionsASplitMadeAndAllOnlyTheInitialOnes) {
  const run::RunReport writable = RunWithFlush("writable");
  EXPECT_EQ(writable.outcome, run::Outcome::kPass);
  EXPECT_EQ(Flushed(writable, "4398046511104(1024, 0)"), 1u);
  EXPECT_EQ(Flushed(writable, "4398046511105(1024, 1)"), 1u);
  EXPECT_EQ(Flushed(writable, "4398046511106(1024, 2)"), 1u);  // the split's new region
  EXPECT_EQ(testing::CountLines(writable, " dn.flush "), 3u);

  const run::RunReport all = RunWithFlush("all");
  EXPECT_EQ(all.outcome, run::Outcome::kPass);
  EXPECT_EQ(Flushed(all, "4398046511104(1024, 0)"), 1u);
  EXPECT_EQ(Flushed(all, "4398046511105(1024, 1)"), 1u);
  EXPECT_EQ(testing::CountLines(all, " dn.flush 4398046511106(1024, 2)"), 0u);
  EXPECT_EQ(testing::CountLines(all, " dn.flush "), 2u);
}

}  // namespace flush_steps_test
}  // namespace
}  // namespace repartsim::scenario
