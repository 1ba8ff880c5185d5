// Goal: a datanode and the object store are value types: two built by the same steps have equal
// fingerprints, a copy is an independent snapshot, and one more write (or any durable change)
// changes the fingerprint.
// Method: build twins step by step, copy, mutate one side, compare fingerprints and scans.
#include <gtest/gtest.h>

#include "tests/model/datanode/datanode_fixture.h"

namespace repartsim::model {
namespace {
namespace fingerprint_test {

using namespace testing;  // NOLINT

void Build(Datanode& dn, ObjectStore& store) {
  NoCrashHook no_crash;
  ASSERT_TRUE(dn.HandleCreateRegion(kR1, TestSchema(), Range(0, 100), store, no_crash).ok());
  ASSERT_TRUE(dn.HandleWrite(kR1, {R(1, 1, 1), R(2, 2, 2)}, V(Range(0, 100)), Protocol::Greptime(),
                             no_crash)
                  .ok());
  ASSERT_TRUE(dn.HandleFlush(kR1, store, no_crash).ok());
  ASSERT_TRUE(
      dn.HandleWrite(kR1, {R(3, 3, 3)}, V(Range(0, 100)), Protocol::Greptime(), no_crash).ok());
  dn.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10000), Protocol::Greptime());
}

TEST(DatanodeFingerprintTest, EqualAfterSameStepsAndChangedByOneMoreWrite) {
  Datanode a{NodeId{1}}, b{NodeId{1}};
  ObjectStore sa, sb;
  Build(a, sa);
  Build(b, sb);
  EXPECT_EQ(a.Fingerprint(), b.Fingerprint());
  EXPECT_EQ(sa.Fingerprint(), sb.Fingerprint());
  NoCrashHook no_crash;
  ASSERT_TRUE(
      b.HandleWrite(kR1, {R(4, 4, 4)}, V(Range(0, 100)), Protocol::Greptime(), no_crash).ok());
  EXPECT_NE(a.Fingerprint(), b.Fingerprint());
}

TEST(DatanodeFingerprintTest, CopyIsAnIndependentSnapshot) {
  Datanode a{NodeId{1}};
  ObjectStore store;
  Build(a, store);
  Datanode snapshot = a;
  ObjectStore store_snapshot = store;
  EXPECT_EQ(snapshot.Fingerprint(), a.Fingerprint());
  NoCrashHook no_crash;
  ASSERT_TRUE(
      a.HandleWrite(kR1, {R(1, 1, 9)}, V(Range(0, 100)), Protocol::Greptime(), no_crash).ok());
  ASSERT_TRUE(a.HandleFlush(kR1, store, no_crash).ok());
  EXPECT_NE(snapshot.Fingerprint(), a.Fingerprint());
  EXPECT_NE(store_snapshot.Fingerprint(), store.Fingerprint());
  EXPECT_EQ(Scan(snapshot, kR1, store_snapshot),
            (std::vector<Row>{R(1, 1, 1), R(2, 2, 2), R(3, 3, 3)}));
  EXPECT_EQ(Scan(a, kR1, store), (std::vector<Row>{R(1, 1, 9), R(2, 2, 2), R(3, 3, 3)}));
}

TEST(DatanodeFingerprintTest, RoleLeaseAndCrashChangeFingerprint) {
  Datanode a{NodeId{1}}, b{NodeId{1}};
  ObjectStore sa, sb;
  Build(a, sa);
  Build(b, sb);
  b.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10001), Protocol::Greptime());
  EXPECT_NE(a.Fingerprint(), b.Fingerprint());
  b.ApplyLease(kR1, RegionRole::kFollower, sim::AtMs(10000), Protocol::Greptime());
  EXPECT_NE(a.Fingerprint(), b.Fingerprint());
  b.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10000), Protocol::Greptime());
  EXPECT_EQ(a.Fingerprint(), b.Fingerprint());
  b.Crash();
  EXPECT_NE(a.Fingerprint(), b.Fingerprint());
  EXPECT_NE(Datanode{NodeId{1}}.Fingerprint(), Datanode{NodeId{2}}.Fingerprint());
}

}  // namespace fingerprint_test
}  // namespace
}  // namespace repartsim::model
