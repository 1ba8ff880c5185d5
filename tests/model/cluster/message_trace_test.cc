// Goal: the trace answers "which message, which fault, which state" (issue 18 item 6): every
// message has a `send` line and an id that its delivery, random faults (drop, delay,
// duplicate) and losses in flight (crash, reset) repeat; every procedure state transition is
// traced without any step waiting on a state; INSERT and SELECT `op` lines carry the History
// id, the frontend, the table and the rows or the SQL.
// Method: the cluster harness (no random faults unless a test sets a ratio to Always, so every
// decision is forced); assertions on exact trace lines, matched by message id.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/cluster/cluster.h"
#include "tests/model/cluster/cluster_harness.h"

namespace repartsim::model {
namespace {
namespace message_trace_test {

using testing::Harness;
using testing::MakeRow;

// The value of `key=` in `line` up to the next space ("" when absent).
std::string Field(const std::string& line, const std::string& key) {
  const size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) return "";
  const size_t start = at + key.size() + 2;
  return line.substr(start, line.find(' ', start) - start);
}

// The text after "<step> <time> " of `line`.
std::string Event(const std::string& line) {
  const size_t first = line.find(' ');
  return line.substr(line.find(' ', first + 1) + 1);
}

TEST(MessageTraceTest, EveryDeliveryHasASendWithTheSameId) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  h.Insert(sim::AtMs(1000), 0, {MakeRow("a", 1, 1, 3)});
  h.RunUntil(1100);
  const std::vector<std::string> recvs = h.TraceLines(" recv ");
  ASSERT_FALSE(recvs.empty());
  for (const std::string& recv : recvs) {
    const std::string id = Field(recv, "id");
    ASSERT_FALSE(id.empty()) << recv;
    const std::vector<std::string> sends = h.TraceLines(" send id=" + id + " ");
    ASSERT_EQ(sends.size(), 1u) << recv;
    EXPECT_LE(Harness::LineStep(sends[0]), Harness::LineStep(recv));
  }
  // The insert's write: fe1 (n4) sends it, dn1 (n1) receives it under the same id.
  const std::vector<std::string> write = h.TraceLines("msg=WriteRequest to=dn1");
  ASSERT_EQ(write.size(), 1u) << h.TraceText();
  const std::string id = Field(write[0], "id");
  EXPECT_EQ(Event(write[0]), "n4 send id=" + id + " msg=WriteRequest to=dn1");
  EXPECT_EQ(h.TraceLines("n1 recv WriteRequest from=fe1 id=" + id).size(), 1u);
}

TEST(MessageTraceTest, AFlightInsertSendsOneRequestPerRegion) {
  // One datanode leads all three regions: the row path sends one request for the insert's
  // two regions, the Flight path one per region; both are acknowledged.
  ClusterConfig config;
  config.datanode_count = 1;
  Harness h(Protocol::Greptime(), config);
  h.CreateTable(sim::AtMs(0));
  h.Insert(sim::AtMs(1000), 0, {MakeRow("a", 1, 1, 3), MakeRow("b", 1, 1, 15)});
  h.Insert(sim::AtMs(2000), 0, {MakeRow("a", 2, 1, 3), MakeRow("b", 2, 1, 15)}, WritePath::kFlight);
  h.RunUntil(3000);
  const std::vector<std::string> writes = h.TraceLines("msg=WriteRequest to=dn1");
  ASSERT_EQ(writes.size(), 3u) << h.TraceText();
  const std::vector<std::string> flight = h.TraceLines(" op insert id=2 ");
  ASSERT_EQ(flight.size(), 1u);
  EXPECT_NE(flight[0].find(" flight=1 "), std::string::npos) << flight[0];
  // The row path's one request precedes the Flight insert; its two are sent in its step.
  EXPECT_LT(Harness::LineStep(writes[0]), Harness::LineStep(flight[0]));
  EXPECT_EQ(Harness::LineStep(writes[1]), Harness::LineStep(flight[0]));
  EXPECT_EQ(Harness::LineStep(writes[2]), Harness::LineStep(flight[0]));
  ASSERT_EQ(h.cluster.history().writes.size(), 2u);
  EXPECT_EQ(h.cluster.history().writes[0].status, WriteStatus::kAcked);
  EXPECT_EQ(h.cluster.history().writes[0].path, WritePath::kRow);
  EXPECT_EQ(h.cluster.history().writes[1].status, WriteStatus::kAcked);
  EXPECT_EQ(h.cluster.history().writes[1].path, WritePath::kFlight);
}

TEST(MessageTraceTest, ARandomDropShowsSendAndDropWithTheSameId) {
  ClusterConfig config;
  config.faults.drop = sim::Ratio::Always();  // every call; streams never drop
  Harness h(Protocol::Greptime(), config);
  h.CreateTable(sim::AtMs(0));
  h.RunUntil(50);
  // The CREATE TABLE call from fe1 is dropped at the send: no procedure is submitted.
  const std::vector<std::string> sends = h.TraceLines("send id=1 ");
  ASSERT_EQ(sends.size(), 1u) << h.TraceText();
  EXPECT_EQ(Event(sends[0]), "n4 send id=1 msg=DdlSubmit to=metasrv");
  const std::vector<std::string> drops = h.TraceLines("net.drop id=1 ");
  ASSERT_EQ(drops.size(), 1u);
  EXPECT_EQ(Event(drops[0]), "n4 net.drop id=1 msg=DdlSubmit from=fe1 to=metasrv cause=fault");
  EXPECT_EQ(h.TraceCount("recv DdlSubmit"), 0u);
  EXPECT_EQ(h.TraceCount("ms.submit"), 0u);
  EXPECT_EQ(h.TraceCount("net.drop "), h.cluster.network().counters().dropped_fault);
}

TEST(MessageTraceTest, ARandomDelayIsTracedWithItsAmountAndDeliveryTime) {
  ClusterConfig config;
  config.faults.delay = sim::Ratio::Always();
  config.faults.delay_ms_max = sim::Ms(1);  // one option: 1 + 0 ms extra
  Harness h(Protocol::Greptime(), config);
  h.CreateTable(sim::AtMs(0));
  h.RunUntil(10);
  const std::vector<std::string> delays = h.TraceLines("net.delay id=1 ");
  ASSERT_EQ(delays.size(), 1u) << h.TraceText();
  // The CREATE TABLE call, sent at 0: latency 1 ms plus the extra 1 ms.
  EXPECT_EQ(Event(delays[0]),
            "n4 net.delay id=1 msg=DdlSubmit from=fe1 to=metasrv extra_ms=1 deliver_at=2");
  EXPECT_EQ(h.TraceTimes("n0 recv DdlSubmit from=fe1 id=1"), std::vector<int64_t>{2});
}

TEST(MessageTraceTest, ADuplicateIsTracedAndBothCopiesKeepTheId) {
  ClusterConfig config;
  config.faults.duplicate = sim::Ratio::Always();
  Harness h(Protocol::Greptime(), config);
  h.CreateTable(sim::AtMs(0));
  h.RunUntil(10);
  EXPECT_EQ(h.TraceCount("n4 net.duplicate id=1 msg=DdlSubmit from=fe1 to=metasrv"), 1u)
      << h.TraceText();
  EXPECT_EQ(h.TraceCount("n0 recv DdlSubmit from=fe1 id=1"), 2u);
}

TEST(MessageTraceTest, AMessageInFlightToACrashedNodeIsLostWithItsId) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  h.Insert(sim::AtMs(500), 0, {MakeRow("a", 1, 1, 3)});   // fills fe1's route cache
  h.Insert(sim::AtMs(1000), 0, {MakeRow("a", 2, 1, 3)});  // region 0, on dn1: sent at 1000
  h.cluster.Schedule(sim::AtMs(1000), CrashNodeOp{h.cluster.datanode_id(0)});
  h.RunUntil(1100);
  const std::vector<std::string> write = h.TraceLines("msg=WriteRequest to=dn1");
  ASSERT_EQ(write.size(), 2u) << h.TraceText();
  const std::string id = Field(write[1], "id");
  const std::vector<std::string> lost = h.TraceLines("net.lost id=" + id + " ");
  ASSERT_EQ(lost.size(), 1u) << h.TraceText();
  EXPECT_EQ(Event(lost[0]),
            "n4 net.lost id=" + id + " msg=WriteRequest from=fe1 to=dn1 cause=crash");
  EXPECT_LT(h.TraceLines(" crash dn1")[0], lost[0]);
  EXPECT_EQ(h.TraceCount("recv WriteRequest from=fe1 id=" + id), 0u);
}

TEST(MessageTraceTest, RandomResetsLoseWhatWasInFlightOnTheStreamWithIds) {
  ClusterConfig config;
  config.faults.reset = sim::Ratio{1, 4};
  config.faults.delay = sim::Ratio::Always();   // keep messages in flight when a reset comes
  config.faults.delay_ms_max = sim::Ms(10000);  // heartbeats (every 3 s) overlap in flight
  Harness h(Protocol::Greptime(), config);
  h.CreateTable(sim::AtMs(0));
  h.RunUntil(60000);
  // A message lost in flight was sent, delayed, never received, and lost exactly once.
  const std::vector<std::string> lost = h.TraceLines(" net.lost ");
  ASSERT_FALSE(lost.empty()) << h.TraceText();
  for (const std::string& line : lost) {
    const std::string id = Field(line, "id");
    EXPECT_EQ(Field(line, "cause"), "reset") << line;
    EXPECT_EQ(h.TraceCount(" send id=" + id + " "), 1u) << line;
    EXPECT_EQ(h.TraceCount(" net.delay id=" + id + " "), 1u) << line;
    size_t received = 0;
    for (const std::string& recv : h.TraceLines(" recv ")) received += Field(recv, "id") == id;
    EXPECT_EQ(received, 0u) << line;
    EXPECT_EQ(h.TraceCount(" net.lost id=" + id + " "), 1u) << line;
  }
  // The counters agree: every reset is traced, and every message a reset lost is a
  // `net.drop cause=reset` (the send that broke the stream), a `net.drop cause=closed` (sent
  // before the reconnect) or a `net.lost`.
  const sim::NetworkCounters& counters = h.cluster.network().counters();
  EXPECT_EQ(h.TraceCount(" net.reset "), counters.resets);
  EXPECT_EQ(h.TraceCount(" net.drop "), counters.dropped_fault + counters.dropped_down +
                                            counters.dropped_partition +
                                            (counters.dropped_reset - lost.size()));
  EXPECT_EQ(h.TraceCount(" cause=reset") + h.TraceCount(" cause=closed"), counters.dropped_reset);
}

TEST(MessageTraceTest, ProcedureStateTransitionsAreTracedWithoutWaitingSteps) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  h.RunUntil(100);
  std::vector<std::string> states;
  for (const std::string& line : h.TraceLines(" ms.state ")) states.push_back(Event(line));
  EXPECT_EQ(states,
            (std::vector<std::string>{
                "n0 ms.state procedure=1 type=CreateTable from=Prepare to=DatanodeCreateRegions "
                "status=Running",
                "n0 ms.state procedure=1 type=CreateTable from=DatanodeCreateRegions "
                "to=CreateMetadata status=Running",
                "n0 ms.state procedure=1 type=CreateTable from=CreateMetadata to=CreateMetadata "
                "status=Done"}))
      << h.TraceText();
  EXPECT_EQ(h.TraceCount("ms.state_passed"), 0u);  // nothing waits on a state
}

TEST(MessageTraceTest, InsertAndQueryOpLinesCarryIdFrontendTableAndRowsOrSql) {
  Harness h;
  h.CreateTable(sim::AtMs(0));
  h.Insert(sim::AtMs(1000), 1, {MakeRow("a", 1, 1, 3), MakeRow("b", 2, 5, 12)});
  h.Query(sim::AtMs(1100), 0, "a < 10");
  h.RunUntil(1200);
  const std::vector<std::string> insert = h.TraceLines(" op insert");
  ASSERT_EQ(insert.size(), 1u) << h.TraceText();
  EXPECT_EQ(Event(insert[0]),
            "- op insert id=1 fe=fe2 table=1024 rows=2 values=\"('a', 1, 1, 3), ('b', 2, 5, 12)\"");
  const std::vector<std::string> query = h.TraceLines(" op query");
  ASSERT_EQ(query.size(), 1u);
  EXPECT_EQ(Event(query[0]),
            "- op query id=1 fe=fe1 table=1024 sql=\"SELECT * FROM t WHERE a < 10\"");
}

}  // namespace message_trace_test
}  // namespace
}  // namespace repartsim::model
