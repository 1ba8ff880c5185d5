// Goal: pin the metasrv kv semantics: CAS on stored bytes, multi-key transaction atomicity,
// prefix ranges, fingerprints, and update_table_route's "already equals" escape and its
// "Reads the different value" error (docs/protocol.md section 2.4).
// Method: drive a KvStore directly and compare stored bytes and exact messages.
#include "model/meta/kv_store.h"

#include <gtest/gtest.h>

#include "model/meta/meta_keys.h"
#include "model/meta/table_metadata.h"

namespace repartsim::model {
namespace {
namespace kv_store_test {

TEST(KvStoreTest, CompareAndPutSucceedsOnlyWhenStoredBytesMatch) {
  KvStore kv;
  KvCasResult first = kv.CompareAndPut("k", std::nullopt, "v1");
  EXPECT_TRUE(first.succeeded);
  EXPECT_EQ(first.previous, std::nullopt);
  KvCasResult absent_again = kv.CompareAndPut("k", std::nullopt, "v2");
  EXPECT_FALSE(absent_again.succeeded);
  EXPECT_EQ(absent_again.previous, "v1");
  EXPECT_EQ(kv.Get("k"), "v1");
  KvCasResult wrong = kv.CompareAndPut("k", std::string("zz"), "v2");
  EXPECT_FALSE(wrong.succeeded);
  EXPECT_TRUE(kv.CompareAndPut("k", std::string("v1"), "v2").succeeded);
  EXPECT_EQ(kv.Get("k"), "v2");
  EXPECT_TRUE(kv.Delete("k"));
  EXPECT_FALSE(kv.Delete("k"));
  EXPECT_EQ(kv.Get("k"), std::nullopt);
}

TEST(KvStoreTest, TxnAppliesNothingOfSuccessWhenOneCompareFails) {
  KvStore kv;
  kv.Put("a", "1");
  kv.Put("b", "2");
  KvTxn txn;
  txn.compares = {KvCompare{"a", std::string("1")}, KvCompare{"b", std::string("X")}};
  txn.on_success = {KvOp::Put("a", "10"), KvOp::Put("c", "30"), KvOp::Delete("b")};
  txn.on_failure = {KvOp::Put("failed", "yes")};
  KvTxnResult r = kv.Txn(txn);
  EXPECT_FALSE(r.succeeded);
  ASSERT_EQ(r.read.size(), 2u);
  EXPECT_EQ(r.read[0], "1");
  EXPECT_EQ(r.read[1], "2");
  EXPECT_EQ(kv.Get("a"), "1");
  EXPECT_EQ(kv.Get("b"), "2");
  EXPECT_EQ(kv.Get("c"), std::nullopt);
  EXPECT_EQ(kv.Get("failed"), "yes");
  txn.compares[1].expected = "2";
  KvTxnResult ok = kv.Txn(txn);
  EXPECT_TRUE(ok.succeeded);
  EXPECT_EQ(kv.Get("a"), "10");
  EXPECT_EQ(kv.Get("b"), std::nullopt);
  EXPECT_EQ(kv.Get("c"), "30");
}

TEST(KvStoreTest, RangeReturnsPrefixMatchesInKeyOrder) {
  KvStore kv;
  kv.Put(TableRouteKey(TableId{10}), "x");
  kv.Put(TableRouteKey(TableId{1}), "y");
  kv.Put(TableInfoKey(TableId{1}), "z");
  auto all_routes = kv.Range(kTableRoutePrefix);
  ASSERT_EQ(all_routes.size(), 2u);
  EXPECT_EQ(all_routes[0].first, "__table_route/1");
  EXPECT_EQ(all_routes[1].first, "__table_route/10");
  EXPECT_EQ(kv.Range("__table_route/10").size(), 1u);
  EXPECT_EQ(DatanodeTableKey(NodeId{3}, TableId{1024}), "__dn_table/3/1024");
  EXPECT_EQ(TableRepartKey(TableId{7}), "__table_repart/7");
}

TEST(KvStoreTest, FingerprintEqualForEqualContentAndChangesWithOnePut) {
  KvStore a, b;
  a.Put("x", "1");
  a.Put("y", "2");
  b.Put("y", "2");
  b.Put("x", "1");
  EXPECT_EQ(a.Fingerprint(), b.Fingerprint());
  KvStore snapshot = a;
  a.Put("z", "3");
  EXPECT_NE(a.Fingerprint(), snapshot.Fingerprint());
  EXPECT_EQ(snapshot.Fingerprint(), b.Fingerprint());
}

RegionRoute Route(uint32_t number, int64_t upper) {
  RegionRoute r;
  r.region_id = RegionId::Of(TableId{1024}, RegionNumber{number});
  r.partition_expr = PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(upper));
  r.leader = NodeId{1};
  return r;
}

TEST(UpdateTableRouteTest, SucceedsWhenStoredBytesAreUnchanged) {
  KvStore kv;
  TableRoute route = TableRoute::New({Route(0, 10)});
  const std::string raw = EncodeTableRoute(route);
  kv.Put(TableRouteKey(TableId{1024}), raw);
  MetaUpdateResult r =
      UpdateTableRoute(kv, TableId{1024}, raw, route, {Route(0, 10), Route(1, 20)});
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.error, "");
  std::optional<TableRoute> stored = ReadTableRoute(kv, TableId{1024});
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->version, 1u);
  EXPECT_EQ(stored->region_routes.size(), 2u);
}

TEST(UpdateTableRouteTest, SucceedsWhenCasFailsButStoredValueAlreadyEqualsIntended) {
  KvStore kv;
  TableRoute route = TableRoute::New({Route(0, 10)});
  const std::string raw = EncodeTableRoute(route);
  kv.Put(TableRouteKey(TableId{1024}), raw);
  ASSERT_TRUE(UpdateTableRoute(kv, TableId{1024}, raw, route, {Route(0, 20)}).ok);
  const std::string after_first = *kv.Get(TableRouteKey(TableId{1024}));
  // A retry of the same update from the same stale read: the CAS fails but the stored value
  // already is the intended one, so it succeeds without writing.
  MetaUpdateResult retry = UpdateTableRoute(kv, TableId{1024}, raw, route, {Route(0, 20)});
  EXPECT_TRUE(retry.ok);
  EXPECT_EQ(*kv.Get(TableRouteKey(TableId{1024})), after_first);
}

TEST(UpdateTableRouteTest, FailsWithReadsTheDifferentValueWhenAnotherUpdateWon) {
  KvStore kv;
  TableRoute route = TableRoute::New({Route(0, 10)});
  const std::string raw = EncodeTableRoute(route);
  kv.Put(TableRouteKey(TableId{1024}), raw);
  ASSERT_TRUE(UpdateTableRoute(kv, TableId{1024}, raw, route, {Route(0, 20)}).ok);
  const std::string stored = *kv.Get(TableRouteKey(TableId{1024}));
  MetaUpdateResult lost = UpdateTableRoute(kv, TableId{1024}, raw, route, {Route(0, 30)});
  EXPECT_FALSE(lost.ok);
  const std::string intended = EncodeTableRoute(route.Updated({Route(0, 30)}));
  EXPECT_EQ(lost.error, "Reads the different value: " + stored +
                            " during Updating table route, expected: " + intended);
  EXPECT_EQ(*kv.Get(TableRouteKey(TableId{1024})), stored);
}

TEST(CreateTableMetadataTest, IsIdempotentForEqualValuesAndFailsForDifferentOnes) {
  KvStore kv;
  TableInfo info;
  info.table_id = TableId{1024};
  info.name = "t";
  info.schema.name = "t";
  info.schema.columns = {Column{"a", ColumnType::kInt64, true},
                         Column{"ts", ColumnType::kTimestamp, false}};
  info.schema.time_index = 1;
  TableRoute route = TableRoute::New({Route(0, 10)});
  EXPECT_TRUE(CreateTableMetadata(kv, info, route).ok);
  EXPECT_TRUE(CreateTableMetadata(kv, info, route).ok);
  TableInfo other = info;
  other.name = "u";
  MetaUpdateResult r = CreateTableMetadata(kv, other, route);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "Reads the different value: " + EncodeTableInfo(info) +
                         " during Creating table metadata, expected: " + EncodeTableInfo(other));
  ASSERT_TRUE(ReadTableInfo(kv, TableId{1024}).has_value());
  EXPECT_EQ(ReadTableInfo(kv, TableId{1024})->name, "t");
}

TEST(UpdateTableInfoTest, FailsWhenStoredInfoChanged) {
  KvStore kv;
  TableInfo info;
  info.table_id = TableId{7};
  info.name = "t";
  const std::string raw = EncodeTableInfo(info);
  kv.Put(TableInfoKey(TableId{7}), raw);
  TableInfo next = info;
  next.partition_key_indices = {0};
  EXPECT_TRUE(UpdateTableInfo(kv, TableId{7}, raw, next).ok);
  TableInfo other = info;
  other.options["ttl"] = "1d";
  MetaUpdateResult r = UpdateTableInfo(kv, TableId{7}, raw, other);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.rfind("Reads the different value: ", 0), 0u);
  EXPECT_NE(r.error.find(" during Updating table info, expected: "), std::string::npos);
}

}  // namespace kv_store_test
}  // namespace
}  // namespace repartsim::model
