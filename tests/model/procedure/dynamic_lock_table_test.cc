// Goal: DynamicLockTable holds GreptimeDB's dynamic locks (docs/protocol.md section 9): exclusive
// keys exclude other owners, an owner may re-take its key, a refused taker waits and is handed
// back once some key was released, and Clear (a metasrv crash) drops holders and waiters.
// Method: drive the table directly with procedure ids.
#include "model/procedure/dynamic_lock_table.h"

#include <gtest/gtest.h>

#include <vector>

namespace repartsim::model {
namespace {

const LockKey kTable{"table/1024", true};

TEST(DynamicLockTableTest, ExclusiveKeyRefusesAnotherOwnerUntilReleased) {
  DynamicLockTable table;
  EXPECT_TRUE(table.TryAcquire(ProcedureId{1}, kTable));
  EXPECT_TRUE(table.TryAcquire(ProcedureId{1}, kTable));  // re-entrant
  EXPECT_FALSE(table.TryAcquire(ProcedureId{2}, kTable));
  EXPECT_TRUE(table.HeldBy(ProcedureId{1}, kTable.key));
  EXPECT_FALSE(table.HeldBy(ProcedureId{2}, kTable.key));
  EXPECT_TRUE(table.TakeWaitersToWake().empty());  // nothing released yet
  table.Release(ProcedureId{1}, kTable.key);
  EXPECT_FALSE(table.Held(kTable.key));
  EXPECT_EQ(table.TakeWaitersToWake(), std::vector<ProcedureId>{ProcedureId{2}});
  EXPECT_TRUE(table.TakeWaitersToWake().empty());
  EXPECT_TRUE(table.TryAcquire(ProcedureId{2}, kTable));
}

TEST(DynamicLockTableTest, ReleaseByANonHolderChangesNothing) {
  DynamicLockTable table;
  EXPECT_TRUE(table.TryAcquire(ProcedureId{1}, kTable));
  EXPECT_FALSE(table.TryAcquire(ProcedureId{2}, kTable));
  table.Release(ProcedureId{2}, kTable.key);
  EXPECT_TRUE(table.HeldBy(ProcedureId{1}, kTable.key));
  EXPECT_TRUE(table.TakeWaitersToWake().empty());
}

TEST(DynamicLockTableTest, ReleaseAllOfAnEndedOwnerWakesWaitersAndClearForgetsThem) {
  DynamicLockTable table;
  EXPECT_TRUE(table.TryAcquire(ProcedureId{1}, kTable));
  EXPECT_FALSE(table.TryAcquire(ProcedureId{3}, kTable));
  EXPECT_FALSE(table.TryAcquire(ProcedureId{2}, kTable));
  table.ReleaseAll(ProcedureId{1});
  EXPECT_TRUE(table.empty());
  EXPECT_EQ(table.TakeWaitersToWake(), (std::vector<ProcedureId>{ProcedureId{2}, ProcedureId{3}}));
  EXPECT_TRUE(table.TryAcquire(ProcedureId{1}, kTable));
  EXPECT_FALSE(table.TryAcquire(ProcedureId{2}, kTable));
  table.Clear();
  EXPECT_TRUE(table.empty());
  EXPECT_TRUE(table.TakeWaitersToWake().empty());
}

}  // namespace
}  // namespace repartsim::model
