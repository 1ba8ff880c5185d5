// Goal: the frontend's fingerprint covers every field that affects its future behaviour: the
// node (id, up, correlation counter), the route cache (cached route AND table info, invalidation
// counts, the ignore set, fills in flight) and the statement table (every field of every
// statement: attempts, rows still to route, each outstanding request with its writes, the
// outcome so far, the planned schema, scanned regions, a pending re-plan; and the corr index).
// The metasrv id and the config are construction constants, the same in every state of a run.
// Method: one frontend with a cached table, a fill in flight, an insert and a query in flight;
// change one field at a time on a copy (public interface, or sim::FingerprintSeam) and require
// the fingerprint to differ.
#include "tests/model/fingerprint_completeness.h"

#include <gtest/gtest.h>

#include "model/frontend/frontend.h"
#include "model/meta/table_info.h"

namespace repartsim::sim {

template <>
struct FingerprintSeam<model::Frontend> {
  using F = model::Frontend;
  static model::NodeId& id(F& f) { return f.id_; }
  static bool& up(F& f) { return f.up_; }
  static uint64_t& next_corr(F& f) { return f.next_corr_; }
  static model::RouteCache& routes(F& f) { return f.routes_; }
  static model::StatementTable& statements(F& f) { return f.statements_; }
  static std::map<uint64_t, model::FrontendDdl>& ddls(F& f) { return f.ddls_; }
};

}  // namespace repartsim::sim

namespace repartsim::model {
namespace {
namespace fingerprint_completeness_test {

using namespace testing;  // NOLINT
using Seam = sim::FingerprintSeam<Frontend>;

constexpr TableId kTable{1024};
constexpr TableId kOther{1025};
const RegionId kRegion = RegionId::Of(kTable, RegionNumber{0});

TableInfo Info() {
  TableInfo info;
  info.table_id = kTable;
  info.name = "t";
  info.schema.name = "t";
  info.schema.columns = {Column{"a", ColumnType::kInt32, true},
                         Column{"ts", ColumnType::kTimestamp, false}};
  info.schema.time_index = 1;
  info.partition_key_indices = {0};
  return info;
}

Row MakeRow(int64_t a) { return Row{Value::Int(a), Value::Timestamp(a)}; }

RouteReply Reply(uint64_t corr) {
  RegionRoute r;
  r.region_id = kRegion;
  r.leader = NodeId{1};
  RouteReply reply;
  reply.corr = corr;
  reply.table = kTable;
  reply.found = true;
  reply.route = TableRoute::New({r});
  reply.info = Info();
  return reply;
}

// Route cache: kTable cached, an invalidation of kOther counted, kOther ignored, a fill of
// kOther in flight.
RouteCache BaseCache() {
  RouteCache cache;
  cache.StartFill(kTable, 1, sim::AtMs(5000), 0);
  EXPECT_EQ(cache.CompleteFill(Reply(1), true, false).kind, RouteCache::FillResult::Kind::kApplied);
  cache.Invalidate(kOther);
  cache.SetIgnoreInvalidations(kOther, true);
  cache.StartFill(kOther, 2, sim::AtMs(5000), 1);
  return cache;
}

uint64_t kInsertKey = 0;
uint64_t kQueryKey = 0;

// Statement table: an insert in flight with one write request outstanding and a row left to
// route; a query in flight with one scan outstanding.
StatementTable BaseStatements() {
  StatementTable table;
  FrontendStatement& insert = table.Add(StatementKind::kInsert, 1, kTable);
  kInsertKey = insert.key;
  insert.phase = StatementPhase::kInFlight;
  insert.rows = {MakeRow(7)};
  insert.attempts = 1;
  insert.deadline = sim::AtMs(5000);
  table.Track(insert, 10, SubRequest{NodeId{1}, {RegionWrite{kRegion, {MakeRow(1)}, 3}}, {}});
  FrontendStatement& query = table.Add(StatementKind::kQuery, 1, kTable);
  kQueryKey = query.key;
  query.phase = StatementPhase::kInFlight;
  query.schema = Info().schema;
  query.deadline = sim::AtMs(5000);
  table.Track(query, 11, SubRequest{NodeId{1}, {}, kRegion});
  return table;
}

TEST(FrontendFingerprintCompletenessTest, EveryNodeFieldChangesTheFingerprint) {
  Frontend base(NodeId{3}, NodeId{0});
  Seam::routes(base) = BaseCache();
  Seam::statements(base) = BaseStatements();
  FrontendDdl& ddl = Seam::ddls(base)[20];
  ddl.history_id = 1;
  ddl.table = kTable;
  ddl.alter = sql::AlterRepartition{};
  ddl.task = RepartitionTask{};
  ddl.submitted = true;
  ddl.attempts = 1;
  ExpectEachMutationChangesFingerprint<Frontend>(
      base, HashOf<Frontend>,
      {
          {"id_", [](Frontend& f) { Seam::id(f) = NodeId{4}; }},
          {"up_", [](Frontend& f) { Seam::up(f) = false; }},
          {"next_corr_", [](Frontend& f) { ++Seam::next_corr(f); }},
          {"routes_", [](Frontend& f) { f.Invalidate(kTable); }},
          {"statements_", [](Frontend& f) { Seam::statements(f) = StatementTable{}; }},
          {"ddls_", [](Frontend& f) { Seam::ddls(f).clear(); }},
          {"ddls_ key",
           [](Frontend& f) {
             Seam::ddls(f)[21] = Seam::ddls(f).at(20);
             Seam::ddls(f).erase(20);
           }},
          {"ddls_ history_id", [](Frontend& f) { Seam::ddls(f).at(20).history_id = 2; }},
          {"ddls_ table", [](Frontend& f) { Seam::ddls(f).at(20).table = kOther; }},
          {"ddls_ alter", [](Frontend& f) { Seam::ddls(f).at(20).alter.reset(); }},
          {"ddls_ create", [](Frontend& f) { Seam::ddls(f).at(20).create = CreateTableTask{}; }},
          {"ddls_ submitted", [](Frontend& f) { Seam::ddls(f).at(20).submitted = false; }},
          {"ddls_ deadline", [](Frontend& f) { Seam::ddls(f).at(20).deadline = sim::AtMs(1); }},
          {"ddls_ attempts", [](Frontend& f) { Seam::ddls(f).at(20).attempts = 2; }},
          {"ddls_ task", [](Frontend& f) { Seam::ddls(f).at(20).task.reset(); }},
          {"ddls_ task.timeout_ms", [](Frontend& f) { Seam::ddls(f).at(20).task->timeout_ms = 1; }},
      });
}

TEST(FrontendFingerprintCompletenessTest, EveryRouteCacheFieldChangesTheFingerprint) {
  auto cached_info = [](RouteCache& c, auto edit) {
    RouteReply reply = Reply(9);
    edit(reply);
    c.StartFill(kTable, 9, sim::AtMs(5000), 0);
    ASSERT_EQ(c.CompleteFill(reply, true, false).kind, RouteCache::FillResult::Kind::kApplied);
  };
  ExpectEachMutationChangesFingerprint<RouteCache>(
      BaseCache(), HashOf<RouteCache>,
      {
          {"cache_ (dropped)", [](RouteCache& c) { c.Drop(kTable); }},
          {"cache_ route",
           [&](RouteCache& c) {
             cached_info(c,
                         [](RouteReply& r) { r.route = r.route.Updated(r.route.region_routes); });
           }},
          {"cache_ info.name",
           [&](RouteCache& c) { cached_info(c, [](RouteReply& r) { r.info.name = "u"; }); }},
          {"cache_ info.schema",
           [&](RouteCache& c) {
             cached_info(c, [](RouteReply& r) { r.info.schema.append_mode = true; });
           }},
          {"cache_ info.partition_key_indices",
           [&](RouteCache& c) {
             cached_info(c, [](RouteReply& r) { r.info.partition_key_indices.clear(); });
           }},
          {"cache_ info.options",
           [&](RouteCache& c) {
             cached_info(c, [](RouteReply& r) { r.info.options["ttl"] = "1d"; });
           }},
          {"invalidations_",
           [](RouteCache& c) {
             c.SetIgnoreInvalidations(kOther, false);
             c.Invalidate(kOther);  // kOther is not cached: only the count moves
             c.SetIgnoreInvalidations(kOther, true);
           }},
          {"ignore_invalidations_", [](RouteCache& c) { c.SetIgnoreInvalidations(kOther, false); }},
          {"fills_ (none)", [](RouteCache& c) { c.TakeExpiredFills(sim::AtMs(5000)); }},
          {"fills_ corr",
           [](RouteCache& c) {
             c.TakeExpiredFills(sim::AtMs(5000));
             c.StartFill(kOther, 3, sim::AtMs(5000), 1);
           }},
          {"fills_ deadline",
           [](RouteCache& c) {
             c.TakeExpiredFills(sim::AtMs(5000));
             c.StartFill(kOther, 2, sim::AtMs(5001), 1);
           }},
          {"fills_ reloads",
           [](RouteCache& c) {
             c.TakeExpiredFills(sim::AtMs(5000));
             c.StartFill(kOther, 2, sim::AtMs(5000), 2);
           }},
      });
  // A fill started before or after an invalidation: only invalidations_at_start differs.
  RouteCache before = BaseCache(), after = BaseCache();
  before.TakeExpiredFills(sim::AtMs(5000));
  after.TakeExpiredFills(sim::AtMs(5000));
  before.Invalidate(kTable);
  before.StartFill(kTable, 4, sim::AtMs(6000), 0);
  after.StartFill(kTable, 4, sim::AtMs(6000), 0);
  after.Invalidate(kTable);
  EXPECT_NE(HashOf(before), HashOf(after))
      << "the fingerprint misses fills_ invalidations_at_start";
}

TEST(FrontendFingerprintCompletenessTest, EveryStatementFieldChangesTheFingerprint) {
  const StatementTable base = BaseStatements();
  auto insert = [](StatementTable& t) -> FrontendStatement& { return t.At(kInsertKey); };
  auto query = [](StatementTable& t) -> FrontendStatement& { return t.At(kQueryKey); };
  ExpectEachMutationChangesFingerprint<StatementTable>(
      base, HashOf<StatementTable>,
      {
          {"table", [&](StatementTable& t) { insert(t).table = kOther; }},
          {"bulk", [&](StatementTable& t) { insert(t).path = WritePath::kBatcher; }},
          {"phase", [&](StatementTable& t) { insert(t).phase = StatementPhase::kWaitingRoute; }},
          {"rows (content)", [&](StatementTable& t) { insert(t).rows = {MakeRow(8)}; }},
          {"attempts", [&](StatementTable& t) { ++insert(t).attempts; }},
          {"outstanding (none)", [&](StatementTable& t) { insert(t).outstanding.clear(); }},
          {"outstanding node",
           [&](StatementTable& t) { insert(t).outstanding.at(10).node = NodeId{2}; }},
          {"outstanding writes region",
           [&](StatementTable& t) {
             insert(t).outstanding.at(10).writes[0].region = RegionId::Of(kTable, RegionNumber{1});
           }},
          {"outstanding writes rows",
           [&](StatementTable& t) { insert(t).outstanding.at(10).writes[0].rows = {MakeRow(2)}; }},
          {"outstanding writes version",
           [&](StatementTable& t) {
             insert(t).outstanding.at(10).writes[0].version = std::nullopt;
           }},
          {"outstanding region",
           [&](StatementTable& t) {
             query(t).outstanding.at(11).region = RegionId::Of(kTable, RegionNumber{1});
           }},
          {"deadline", [&](StatementTable& t) { insert(t).deadline = sim::AtMs(5001); }},
          {"ok_count", [&](StatementTable& t) { ++insert(t).ok_count; }},
          {"error_count", [&](StatementTable& t) { ++insert(t).error_count; }},
          {"unknown_count", [&](StatementTable& t) { ++insert(t).unknown_count; }},
          {"error", [&](StatementTable& t) { insert(t).error = "request timed out"; }},
          {"result_rows", [&](StatementTable& t) { query(t).result_rows = {MakeRow(1)}; }},
          {"where",
           [&](StatementTable& t) {
             query(t).where = Predicate::Compare("a", CompareOp::kLt, Value::Int(3));
           }},
          {"schema", [&](StatementTable& t) { query(t).schema.append_mode = true; }},
          {"scanned", [&](StatementTable& t) { query(t).scanned.push_back(kRegion); }},
          {"replan", [&](StatementTable& t) { query(t).replan = true; }},
          {"corr_owner_", [](StatementTable& t) { ASSERT_NE(t.TakeOwner(10), nullptr); }},
      });
}

}  // namespace fingerprint_completeness_test
}  // namespace
}  // namespace repartsim::model
