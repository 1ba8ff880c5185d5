// Goal: the repartition parent and its groups take exactly the procedure locks GreptimeDB's do at
// 7fd0a7b (shared/reference migration-and-scans 1.2; src/meta-srv/src/procedure/repartition.rs
// and group.rs `lock_key`): the parent Catalog-R, Schema-R, Table-W and TableName-W; a group
// Catalog-R, Schema-R and Region-W per source only (no lock on its targets).
// Method: build the bodies from persistent contexts and compare their lock_keys().
#include <gtest/gtest.h>

#include <vector>

#include "model/repartition/group/group_procedure.h"
#include "model/repartition/repartition_procedure.h"

namespace repartsim::model {
namespace {

constexpr TableId kTable{1024};

TEST(LockKeysTest, ParentLocksCatalogAndSchemaSharedTableAndTableNameExclusive) {
  RepartitionProcedure::PersistentContext ctx;
  ctx.table = kTable;
  ctx.table_name = "t";
  const std::vector<LockKey> expected = {{"catalog/greptime", false},
                                         {"schema/greptime.public", false},
                                         {"table/1024", true},
                                         {"table_name/greptime.public.t", true}};
  EXPECT_EQ(RepartitionProcedure(ctx).lock_keys(), expected);
}

TEST(LockKeysTest, GroupLocksEachSourceRegionExclusiveAndNoTarget) {
  RepartitionGroupProcedure::PersistentContext ctx;
  ctx.table = kTable;
  ctx.sources = {SourceDescriptor{RegionId::Of(kTable, RegionNumber{0}), std::nullopt},
                 SourceDescriptor{RegionId::Of(kTable, RegionNumber{2}), std::nullopt}};
  ctx.targets = {TargetDescriptor{RegionId::Of(kTable, RegionNumber{0}), {}},
                 TargetDescriptor{RegionId::Of(kTable, RegionNumber{5}), {}}};
  const std::vector<LockKey> expected = {
      {"catalog/greptime", false},
      {"schema/greptime.public", false},
      {"region/" + std::to_string(RegionId::Of(kTable, RegionNumber{0}).value), true},
      {"region/" + std::to_string(RegionId::Of(kTable, RegionNumber{2}).value), true}};
  EXPECT_EQ(RepartitionGroupProcedure(ctx).lock_keys(), expected);
}

}  // namespace
}  // namespace repartsim::model
