// Goal: the frontend's DDL path (docs/protocol.md section 4): a repartition of a table it has
// not cached fills the route first, is validated against the cached route and table info and
// goes to the metasrv as one DdlSubmit call whose task carries the planned expressions; the
// DdlReply ends the History record (Done also drops the frontend's own cached route, Failed
// keeps the procedure's error, Unavailable is a rejection); an invalid statement is rejected
// without a call; a crash of the frontend or of the metasrv ends it Unknown. Method: one frontend,
// hand-made route fills and replies, exact outbox, History and trace.
#include <gtest/gtest.h>

#include "model/frontend/frontend.h"
#include "model/sql/parser.h"
#include "tests/model/frontend/frontend_fixture.h"
#include "tests/model/node/node_context_fixture.h"

namespace repartsim::model {
namespace {
namespace frontend_ddl_test {

using namespace testing;  // NOLINT

constexpr NodeId kMetasrv{0};
constexpr NodeId kSelf{3};

sql::AlterRepartition Alter(const std::string& text) {
  auto r = sql::ParseStatements(text, "alter");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().Format());
  return std::get<sql::AlterRepartition>(r.value()[0].body);
}

const char* kSplit = "ALTER TABLE t SPLIT PARTITION (a >= 10) INTO (a >= 10 AND a < 20, a >= 20)";

DdlRecord& AddRecord(History& history) {
  DdlRecord& record = history.ddls.emplace_back();
  record.id = history.ddls.size();
  return record;
}

Message Fill(uint64_t corr) {
  RouteReply reply;
  reply.corr = corr;
  reply.table = kFeTable;
  reply.found = true;
  reply.route = TableRoute::New({FeRoute(0, FeLt(10)), FeRoute(1, FeGe(10))});
  reply.info = FeInfo();
  return Message{reply};
}

// A frontend that took the split as DDL 1 and submitted it: returns the DdlSubmit.
DdlSubmit Submitted(Frontend& fe, NodeContextFixture& f) {
  AddRecord(f.history());
  fe.StartRepartition(1, kFeTable, Alter(kSplit), f.ctx());
  EXPECT_EQ(f.ctx().outbox.size(), 1u);
  const auto* fill = std::get_if<RouteRequest>(&f.ctx().outbox.at(0).message.body);
  EXPECT_NE(fill, nullptr);
  const uint64_t corr = fill == nullptr ? 0 : fill->corr;
  f.ctx().outbox.clear();
  fe.OnMessage(kMetasrv, Fill(corr), f.ctx());
  EXPECT_EQ(f.ctx().outbox.size(), 1u);
  EXPECT_EQ(f.ctx().outbox.at(0).to, kMetasrv);
  const auto* submit = std::get_if<DdlSubmit>(&f.ctx().outbox.at(0).message.body);
  EXPECT_NE(submit, nullptr);
  DdlSubmit out = submit == nullptr ? DdlSubmit{} : *submit;
  f.ctx().outbox.clear();
  return out;
}

TEST(FrontendDdlTest, ARepartitionFillsValidatesAndSubmitsOneCall) {
  Frontend fe(kSelf, kMetasrv);
  NodeContextFixture f(kSelf);
  DdlSubmit submit = Submitted(fe, f);
  EXPECT_EQ(submit.ddl, 1u);
  const auto* task = std::get_if<RepartitionTask>(&submit.task);
  ASSERT_NE(task, nullptr);
  EXPECT_EQ(task->info.table_id, kFeTable);
  EXPECT_EQ(task->kind, sql::AlterRepartition::Kind::kSplit);
  EXPECT_EQ(task->from, std::vector<PartitionExpr>{FeGe(10)});
  EXPECT_EQ(task->to.size(), 2u);
  EXPECT_FALSE(task->target_columns.has_value());
  EXPECT_EQ(task->timeout_ms, 60000);
  EXPECT_EQ(f.history().ddls[0].status, DdlStatus::kPending);
  // Pending until the answer or the call deadline: the DDL's timeout from the submission.
  EXPECT_EQ(fe.NextTimer(), sim::AtMs(1000 + 60000));
}

// The call's deadline is the DDL's timeout (GreptimeDB's submit_ddl_task deadline). At the
// deadline the meta client submits the same task again as a new call, three attempts in all; a
// late answer to an earlier call is ignored; after the third deadline the DDL ends Unknown.
TEST(FrontendDdlTest, ACallDeadlineResubmitsTheTaskThenEndsUnknown) {
  Frontend fe(kSelf, kMetasrv);
  NodeContextFixture f(kSelf);
  const DdlSubmit first = Submitted(fe, f);
  NodeContextFixture early(kSelf, Protocol::Greptime(), sim::AtMs(60999));
  fe.OnTimer(early.ctx());
  EXPECT_TRUE(early.ctx().outbox.empty());
  NodeContextFixture second(kSelf, Protocol::Greptime(), sim::AtMs(61000));
  second.history() = f.history();
  fe.OnTimer(second.ctx());
  ASSERT_EQ(second.ctx().outbox.size(), 1u);
  const auto* again = std::get_if<DdlSubmit>(&second.ctx().outbox[0].message.body);
  ASSERT_NE(again, nullptr);
  EXPECT_NE(again->corr, first.corr);
  EXPECT_EQ(again->ddl, 1u);
  ASSERT_TRUE(std::holds_alternative<RepartitionTask>(again->task));
  EXPECT_EQ(std::get<RepartitionTask>(again->task).from,
            std::get<RepartitionTask>(first.task).from);
  EXPECT_EQ(std::get<RepartitionTask>(again->task).to, std::get<RepartitionTask>(first.task).to);
  EXPECT_EQ(
      second.TraceCount("fe.ddl_resubmit repartition table=1024 attempt=2 after a call deadline"),
      1u);
  EXPECT_EQ(fe.NextTimer(), sim::AtMs(121000));
  // The first call's answer comes late: ignored, the DDL waits for the second call.
  fe.OnMessage(kMetasrv, Message{DdlReply{first.corr, DdlOutcome::kDone, 7, ""}}, second.ctx());
  EXPECT_EQ(second.history().ddls[0].status, DdlStatus::kPending);
  NodeContextFixture third(kSelf, Protocol::Greptime(), sim::AtMs(121000));
  third.history() = second.history();
  fe.OnTimer(third.ctx());
  ASSERT_EQ(third.ctx().outbox.size(), 1u);
  EXPECT_EQ(
      third.TraceCount("fe.ddl_resubmit repartition table=1024 attempt=3 after a call deadline"),
      1u);
  NodeContextFixture last(kSelf, Protocol::Greptime(), sim::AtMs(181000));
  last.history() = third.history();
  fe.OnTimer(last.ctx());
  EXPECT_TRUE(last.ctx().outbox.empty());
  EXPECT_EQ(last.history().ddls[0].status, DdlStatus::kUnknown);
  EXPECT_EQ(last.history().ddls[0].error, "deadline exceeded: the DDL call timed out 3 times");
  EXPECT_EQ(fe.NextTimer(), std::nullopt);
}

// The second call's answer ends the DDL.
TEST(FrontendDdlTest, TheResubmittedCallsAnswerEndsTheDdl) {
  Frontend fe(kSelf, kMetasrv);
  NodeContextFixture f(kSelf);
  Submitted(fe, f);
  NodeContextFixture later(kSelf, Protocol::Greptime(), sim::AtMs(61000));
  later.history() = f.history();
  fe.OnTimer(later.ctx());
  ASSERT_EQ(later.ctx().outbox.size(), 1u);
  const uint64_t corr = std::get<DdlSubmit>(later.ctx().outbox[0].message.body).corr;
  fe.OnMessage(kMetasrv, Message{DdlReply{corr, DdlOutcome::kFailed, 8, "not found"}}, later.ctx());
  EXPECT_EQ(later.history().ddls[0].status, DdlStatus::kFailed);
  EXPECT_EQ(later.history().ddls[0].error, "not found");
}

TEST(FrontendDdlTest, DoneEndsTheRecordAndDropsTheOwnCachedRoute) {
  Frontend fe(kSelf, kMetasrv);
  NodeContextFixture f(kSelf);
  DdlSubmit submit = Submitted(fe, f);
  ASSERT_EQ(fe.cache().count(kFeTable), 1u);
  fe.OnMessage(kMetasrv, Message{DdlReply{submit.corr, DdlOutcome::kDone, 7, ""}}, f.ctx());
  const DdlRecord& record = f.history().ddls[0];
  EXPECT_EQ(record.status, DdlStatus::kDone);
  EXPECT_EQ(record.error, "");
  EXPECT_EQ(record.end, sim::AtMs(1000));
  EXPECT_EQ(fe.cache().count(kFeTable), 0u);
  EXPECT_EQ(f.TraceCount("fe.ddl_done repartition table=1024 status=done id=1 procedure=7"), 1u);
  // A second answer to the same call changes nothing.
  fe.OnMessage(kMetasrv, Message{DdlReply{submit.corr, DdlOutcome::kFailed, 7, "x"}}, f.ctx());
  EXPECT_EQ(record.status, DdlStatus::kDone);
}

TEST(FrontendDdlTest, FailedKeepsTheErrorAndTheCache) {
  Frontend fe(kSelf, kMetasrv);
  NodeContextFixture f(kSelf);
  DdlSubmit submit = Submitted(fe, f);
  fe.OnMessage(kMetasrv, Message{DdlReply{submit.corr, DdlOutcome::kFailed, 7, "rolled back"}},
               f.ctx());
  EXPECT_EQ(f.history().ddls[0].status, DdlStatus::kFailed);
  EXPECT_EQ(f.history().ddls[0].error, "rolled back");
  EXPECT_EQ(fe.cache().count(kFeTable), 1u);
}

TEST(FrontendDdlTest, UnavailableIsARejection) {
  Frontend fe(kSelf, kMetasrv);
  NodeContextFixture f(kSelf);
  DdlSubmit submit = Submitted(fe, f);
  fe.OnMessage(kMetasrv,
               Message{DdlReply{submit.corr, DdlOutcome::kUnavailable, 0, "leader start"}},
               f.ctx());
  EXPECT_EQ(f.history().ddls[0].status, DdlStatus::kRejected);
  EXPECT_EQ(f.history().ddls[0].error, "unavailable: leader start");
  EXPECT_EQ(f.TraceCount("fe.ddl_rejected repartition table=1024 status=rejected id=1"), 1u);
}

TEST(FrontendDdlTest, AnInvalidStatementIsRejectedWithoutACall) {
  Frontend fe(kSelf, kMetasrv);
  NodeContextFixture f(kSelf);
  AddRecord(f.history());
  fe.StartRepartition(
      1, kFeTable,
      Alter("ALTER TABLE t SPLIT PARTITION (a >= 99) INTO (a >= 99 AND a < 200, a >= 200)"),
      f.ctx());
  const auto* fill = std::get_if<RouteRequest>(&f.ctx().outbox.at(0).message.body);
  ASSERT_NE(fill, nullptr);
  const uint64_t corr = fill->corr;
  f.ctx().outbox.clear();
  fe.OnMessage(kMetasrv, Fill(corr), f.ctx());
  EXPECT_TRUE(f.ctx().outbox.empty());
  EXPECT_EQ(f.history().ddls[0].status, DdlStatus::kRejected);
  EXPECT_NE(f.history().ddls[0].error.find("does not exist"), std::string::npos)
      << f.history().ddls[0].error;
}

TEST(FrontendDdlTest, ACrashEndsTheCallUnknown) {
  Frontend fe(kSelf, kMetasrv);
  NodeContextFixture f(kSelf);
  Submitted(fe, f);
  fe.Crash(f.ctx());
  EXPECT_EQ(f.history().ddls[0].status, DdlStatus::kUnknown);
  EXPECT_EQ(f.history().ddls[0].error, "frontend crashed");
}

TEST(FrontendDdlTest, AMetasrvCrashBreaksTheCall) {
  Frontend fe(kSelf, kMetasrv);
  NodeContextFixture f(kSelf);
  Submitted(fe, f);
  fe.OnMetasrvLost(f.ctx());
  EXPECT_EQ(f.history().ddls[0].status, DdlStatus::kUnknown);
  EXPECT_EQ(f.history().ddls[0].error, "the call broke: the metasrv went down");
}

TEST(FrontendDdlTest, CreateTableIsSubmittedAtOnceWithoutARecord) {
  Frontend fe(kSelf, kMetasrv);
  NodeContextFixture f(kSelf);
  CreateTableTask task{FeInfo(), TableRoute::New({FeRoute(0, FeLt(10)), FeRoute(1, FeGe(10))})};
  fe.StartCreateTable(0, task, f.ctx());
  ASSERT_EQ(f.ctx().outbox.size(), 1u);
  const auto* submit = std::get_if<DdlSubmit>(&f.ctx().outbox[0].message.body);
  ASSERT_NE(submit, nullptr);
  EXPECT_EQ(submit->ddl, 0u);
  ASSERT_TRUE(std::holds_alternative<CreateTableTask>(submit->task));
  fe.OnMessage(kMetasrv, Message{DdlReply{submit->corr, DdlOutcome::kDone, 1, ""}}, f.ctx());
  EXPECT_EQ(f.TraceCount("fe.ddl_done create_table table=1024 status=done procedure=1"), 1u);
  EXPECT_TRUE(f.history().ddls.empty());
}

}  // namespace frontend_ddl_test
}  // namespace
}  // namespace repartsim::model
