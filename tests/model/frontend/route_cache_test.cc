// Goal: the frontend's route cache (docs/protocol.md section 8): a fill that raced an
// invalidation is discarded and reloaded up to kVersionCheckedReloads times, then fails (nothing
// cached) in greptime, and is always discarded under Rule::kVersionedCacheFills; a reply of another
// fill is ignored; ignored invalidations keep the route (a forced one does not); expired fills are
// forgotten in table order; with Rule::kDiscardRacedFills off a raced fill is cached; a crash
// forgets routes, fills and counts but not the ignore set. Method: drive a RouteCache by hand with
// exact replies.
#include "model/frontend/route_cache.h"

#include <gtest/gtest.h>

#include "model/protocol/rules.h"
#include "tests/model/frontend/frontend_fixture.h"

namespace repartsim::model {
namespace {
namespace route_cache_test {

constexpr TableId kTable{1024};
constexpr TableId kOther{1025};

RouteReply Reply(uint64_t corr, uint64_t version, bool found = true) {
  RouteReply reply;
  reply.corr = corr;
  reply.table = kTable;
  reply.found = found;
  reply.route.version = version;
  return reply;
}

using Kind = RouteCache::FillResult::Kind;

// An entry's partition view is built once and kept, and built again only under the other
// setting of the aligned-rule switch (the one switch it depends on).
TEST(RouteCacheTest, AnEntryKeepsItsPartitionViewPerAlignedSwitch) {
  CachedTable cached = testing::FeCached(
      {testing::FeRoute(0, std::nullopt), testing::FeRoute(1, testing::FeGe(10))});
  Protocol aligned = Protocol::Greptime();
  aligned.Set(Rule::kAlignedPartitionRule, true);
  Protocol unaligned = Protocol::Greptime();
  unaligned.Set(Rule::kAlignedPartitionRule, false);
  const PartitionView* first = &cached.View(aligned);
  EXPECT_EQ(&cached.View(aligned), first);
  EXPECT_EQ(first->write_rule.regions, (std::vector<uint32_t>{1}));
  EXPECT_EQ(cached.View(unaligned).write_rule.regions, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(cached.View(aligned).write_rule.regions, (std::vector<uint32_t>{1}));
}

TEST(RouteCacheTest, AFillThatDidNotRaceIsApplied) {
  RouteCache cache;
  cache.StartFill(kTable, 1, sim::AtMs(5000), 0);
  EXPECT_TRUE(cache.Filling(kTable));
  RouteCache::FillResult r = cache.CompleteFill(Reply(1, 7), true, false);
  EXPECT_EQ(r.kind, Kind::kApplied);
  EXPECT_FALSE(r.raced);
  EXPECT_FALSE(cache.Filling(kTable));
  ASSERT_NE(cache.Find(kTable), nullptr);
  EXPECT_EQ(cache.Find(kTable)->route.version, 7u);
}

TEST(RouteCacheTest, AReplyOfAnotherFillIsIgnored) {
  RouteCache cache;
  cache.StartFill(kTable, 2, sim::AtMs(5000), 0);
  EXPECT_EQ(cache.CompleteFill(Reply(1, 7), true, false).kind, Kind::kIgnored);
  EXPECT_TRUE(cache.Filling(kTable));
  EXPECT_EQ(cache.Find(kTable), nullptr);
}

TEST(RouteCacheTest, GreptimeReloadsARacedFillThreeTimesThenFails) {
  RouteCache cache;
  for (uint32_t reloads = 0; reloads < RouteCache::kVersionCheckedReloads; ++reloads) {
    cache.StartFill(kTable, 10 + reloads, sim::AtMs(5000), reloads);
    EXPECT_TRUE(cache.ReceiveInvalidation(kTable));
    RouteCache::FillResult r = cache.CompleteFill(Reply(10 + reloads, 7), true, false);
    EXPECT_EQ(r.kind, Kind::kDiscarded);
    EXPECT_TRUE(r.raced);
    EXPECT_EQ(r.reloads, reloads);
    EXPECT_EQ(cache.Find(kTable), nullptr);
  }
  cache.StartFill(kTable, 20, sim::AtMs(5000), 3);
  EXPECT_TRUE(cache.ReceiveInvalidation(kTable));
  RouteCache::FillResult last = cache.CompleteFill(Reply(20, 7), true, false);
  EXPECT_EQ(last.kind, Kind::kFailed);
  EXPECT_TRUE(last.raced);
  EXPECT_EQ(last.reloads, 3u);
  EXPECT_FALSE(cache.Filling(kTable));
  EXPECT_EQ(cache.Find(kTable), nullptr);  // the raced value is not kept
}

TEST(RouteCacheTest, VersionedFillsAlwaysDiscardARacedFill) {
  RouteCache cache;
  cache.StartFill(kTable, 1, sim::AtMs(5000), 7);
  cache.Invalidate(kTable);
  EXPECT_EQ(cache.CompleteFill(Reply(1, 7), true, true).kind, Kind::kDiscarded);
  EXPECT_EQ(cache.Find(kTable), nullptr);
}

TEST(RouteCacheTest, WithoutDiscardRacedFillsARacedFillIsCachedAsItIs) {
  // Before GreptimeDB #7825 the Unchecked loader kept what it read before the invalidation:
  // the stale route is cached, whatever versioned-cache-fills says.
  for (bool versioned_fills : {false, true}) {
    RouteCache cache;
    cache.StartFill(kTable, 1, sim::AtMs(5000), 0);
    EXPECT_TRUE(cache.ReceiveInvalidation(kTable));
    RouteCache::FillResult r = cache.CompleteFill(Reply(1, 3), false, versioned_fills);
    EXPECT_EQ(r.kind, Kind::kApplied);
    EXPECT_TRUE(r.raced);
    EXPECT_EQ(r.reloads, 0u);
    EXPECT_FALSE(cache.Filling(kTable));
    ASSERT_NE(cache.Find(kTable), nullptr);
    EXPECT_EQ(cache.Find(kTable)->route.version, 3u);
  }
}

TEST(RouteCacheTest, NotFoundDropsTheRoute) {
  RouteCache cache;
  cache.StartFill(kTable, 1, sim::AtMs(5000), 0);
  cache.CompleteFill(Reply(1, 7), true, false);
  cache.StartFill(kTable, 2, sim::AtMs(5000), 0);
  EXPECT_EQ(cache.CompleteFill(Reply(2, 0, false), true, false).kind, Kind::kApplied);
  EXPECT_EQ(cache.Find(kTable), nullptr);
}

TEST(RouteCacheTest, IgnoredInvalidationsKeepTheRouteAForcedOneDropsIt) {
  RouteCache cache;
  cache.StartFill(kTable, 1, sim::AtMs(5000), 0);
  cache.CompleteFill(Reply(1, 7), true, false);
  cache.SetIgnoreInvalidations(kTable, true);
  EXPECT_FALSE(cache.ReceiveInvalidation(kTable));
  EXPECT_NE(cache.Find(kTable), nullptr);
  cache.Invalidate(kTable);
  EXPECT_EQ(cache.Find(kTable), nullptr);
}

TEST(RouteCacheTest, ExpiredFillsAreForgottenInTableOrder) {
  RouteCache cache;
  cache.StartFill(kOther, 1, sim::AtMs(4000), 0);
  cache.StartFill(kTable, 2, sim::AtMs(3000), 0);
  EXPECT_EQ(cache.NextDeadline()->ms, 3000);
  EXPECT_TRUE(cache.TakeExpiredFills(sim::AtMs(2999)).empty());
  EXPECT_EQ(cache.TakeExpiredFills(sim::AtMs(4000)), (std::vector<TableId>{kTable, kOther}));
  EXPECT_FALSE(cache.NextDeadline().has_value());
}

TEST(RouteCacheTest, ClearKeepsOnlyTheIgnoreSet) {
  RouteCache cache;
  cache.SetIgnoreInvalidations(kTable, true);
  cache.StartFill(kTable, 1, sim::AtMs(5000), 0);
  cache.CompleteFill(Reply(1, 7), true, false);
  cache.Clear();
  EXPECT_TRUE(cache.tables().empty());
  EXPECT_FALSE(cache.Filling(kTable));
  EXPECT_FALSE(cache.ReceiveInvalidation(kTable));  // still ignored
  RouteCache fresh;
  fresh.SetIgnoreInvalidations(kTable, true);
  sim::Hasher a, b;
  cache.Hash(a);
  fresh.Hash(b);
  EXPECT_EQ(a.Finish(), b.Finish());
}

}  // namespace route_cache_test
}  // namespace
}  // namespace repartsim::model
