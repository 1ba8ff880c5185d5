// Goal: the datanode's fingerprint covers every field that affects its future behaviour: the
// node (id, up, open regions, WALs, hosted registry), each open region (committed manifest,
// role, staging info, memtable, WAL and sequence positions, lease deadline, route version)
// and each WAL (entries and last entry id). Derived fields (a region's committed expression
// text and version, its memtable row count) are recomputed from hashed ones and not listed.
// Method: build one datanode with a written, flushed, leased region; change one field at a
// time on a copy (public interface, or the classes' sim::FingerprintSeam) and require the
// fingerprint to differ.
#include "tests/model/fingerprint_completeness.h"

#include <gtest/gtest.h>

#include <memory>

#include "tests/model/datanode/datanode_fixture.h"

namespace repartsim::sim {

template <>
struct FingerprintSeam<model::Datanode> {
  static model::NodeId& id(model::Datanode& dn) { return dn.id_; }
  static bool& up(model::Datanode& dn) { return dn.up_; }
  static std::map<model::RegionId, model::Region>& regions(model::Datanode& dn) {
    return dn.regions_;
  }
  static std::map<model::RegionId, model::RegionWal>& wals(model::Datanode& dn) { return dn.wals_; }
  static std::set<model::RegionId>& hosted(model::Datanode& dn) { return dn.hosted_; }
  static std::set<model::RegionId>& pending_opens(model::Datanode& dn) { return dn.pending_opens_; }
  static SimTime& next_open(model::Datanode& dn) { return dn.next_open_; }
};

template <>
struct FingerprintSeam<model::Region> {
  static uint64_t& last_sequence(model::Region& r) { return r.last_sequence_; }
};

}  // namespace repartsim::sim

namespace repartsim::model {
namespace {
namespace fingerprint_completeness_test {

using namespace testing;  // NOLINT
using DnSeam = sim::FingerprintSeam<Datanode>;

Datanode Built(ObjectStore& store) {
  Datanode dn{NodeId{1}};
  NoCrashHook no_crash;
  const Protocol& p = Protocol::Greptime();
  EXPECT_TRUE(dn.HandleCreateRegion(kR1, TestSchema(), Range(0, 100), store, no_crash).ok());
  EXPECT_TRUE(dn.HandleWrite(kR1, {R(1, 1, 1), R(2, 2, 2)}, V(Range(0, 100)), p, no_crash).ok());
  EXPECT_TRUE(dn.HandleFlush(kR1, store, no_crash).ok());
  EXPECT_TRUE(dn.HandleWrite(kR1, {R(3, 3, 3)}, V(Range(0, 100)), p, no_crash).ok());
  dn.ApplyLease(kR1, RegionRole::kLeader, sim::AtMs(10000), p, store, 4);
  return dn;
}

Region& R1(Datanode& dn) { return DnSeam::regions(dn).at(kR1); }

TEST(DatanodeFingerprintCompletenessTest, EveryNodeFieldChangesTheFingerprint) {
  ObjectStore store;
  const Datanode base = Built(store);
  ASSERT_NE(base.FindRegion(kR1), nullptr);
  ASSERT_EQ(base.FindRegion(kR1)->memtable().size(), 1u);
  ExpectEachMutationChangesFingerprint<Datanode>(
      base, [](const Datanode& dn) { return dn.Fingerprint(); },
      {
          {"id_", [](Datanode& dn) { DnSeam::id(dn) = NodeId{2}; }},
          {"up_", [](Datanode& dn) { DnSeam::up(dn) = false; }},
          {"regions_ (one closed)", [](Datanode& dn) { DnSeam::regions(dn).erase(kR1); }},
          {"wals_ (one more)", [](Datanode& dn) { DnSeam::wals(dn)[kR3]; }},
          {"wals_ (an entry)",
           [](Datanode& dn) {
             DnSeam::wals(dn).at(kR1).Append(MakeWriteBatch(9, 9, {R(9, 9, 9)}));
           }},
          {"hosted_", [](Datanode& dn) { DnSeam::hosted(dn).insert(kR3); }},
          {"pending_opens_", [](Datanode& dn) { DnSeam::pending_opens(dn).insert(kR3); }},
      });
}

TEST(DatanodeFingerprintCompletenessTest, TheNextBackgroundOpenChangesTheFingerprint) {
  ObjectStore store;
  Datanode base = Built(store);
  base.Crash();
  base.ReopenInBackground(sim::AtMs(5000));
  ASSERT_EQ(base.pending_opens().size(), 1u);
  ExpectEachMutationChangesFingerprint<Datanode>(
      base, [](const Datanode& dn) { return dn.Fingerprint(); },
      {
          {"next_open_", [](Datanode& dn) { DnSeam::next_open(dn) = sim::AtMs(6000); }},
      });
}

TEST(DatanodeFingerprintCompletenessTest, EveryRegionFieldChangesTheFingerprint) {
  ObjectStore store;
  const Datanode base = Built(store);
  auto with_manifest = [](Region& r, auto edit) {
    RegionManifest m = r.version();
    edit(m);
    r.set_version(std::move(m));
  };
  ExpectEachMutationChangesFingerprint<Datanode>(
      base, [](const Datanode& dn) { return dn.Fingerprint(); },
      {
          {"version_.partition_expr",
           [&](Datanode& dn) {
             with_manifest(R1(dn), [](RegionManifest& m) { m.partition_expr = Range(0, 50); });
           }},
          {"version_.files",
           [&](Datanode& dn) {
             with_manifest(R1(dn), [](RegionManifest& m) { m.files.insert(FileId{77}); });
           }},
          {"version_.flushed_entry_id",
           [&](Datanode& dn) {
             with_manifest(R1(dn), [](RegionManifest& m) { ++m.flushed_entry_id; });
           }},
          {"version_.flushed_sequence",
           [&](Datanode& dn) {
             with_manifest(R1(dn), [](RegionManifest& m) { ++m.flushed_sequence; });
           }},
          {"version_.manifest_version",
           [&](Datanode& dn) {
             with_manifest(R1(dn), [](RegionManifest& m) { ++m.manifest_version; });
           }},
          {"version_.awaiting_apply",
           [&](Datanode& dn) {
             with_manifest(R1(dn), [](RegionManifest& m) { m.awaiting_apply = true; });
           }},
          {"version_.awaiting_commit",
           [&](Datanode& dn) {
             with_manifest(R1(dn), [](RegionManifest& m) { m.awaiting_commit = true; });
           }},
          {"version_.schema",
           [&](Datanode& dn) {
             with_manifest(R1(dn), [](RegionManifest& m) {
               m.schema = std::make_shared<TableSchema>(TestSchema(/*append_mode=*/true));
             });
           }},
          {"state_", [](Datanode& dn) { R1(dn).set_state(RegionState::kDowngrading); }},
          {"staging_ (reject all)",
           [](Datanode& dn) { R1(dn).EnterStaging(StagingInfo::RejectAllWrites()); }},
          {"staging_ (expression)",
           [](Datanode& dn) {
             R1(dn).EnterStaging(StagingInfo::UpdatePartitionExpr(Range(0, 50)));
           }},
          {"memtable_", [](Datanode& dn) { R1(dn).ClearMemtable(); }},
          {"last_entry_id_",
           [](Datanode& dn) { R1(dn).set_last_entry_id(R1(dn).last_entry_id() + 1); }},
          {"last_sequence_",
           [](Datanode& dn) { ++sim::FingerprintSeam<Region>::last_sequence(R1(dn)); }},
          {"lease_deadline_", [](Datanode& dn) { R1(dn).set_lease_deadline(sim::AtMs(10001)); }},
          {"lease_deadline_ (none)", [](Datanode& dn) { R1(dn).set_lease_deadline(std::nullopt); }},
          {"applied_route_version_", [](Datanode& dn) { R1(dn).NoteRouteVersion(5); }},
      });
}

// compaction_requested_ is left out of Region::Hash (the trace's run.data line hashes the
// datanodes' data); the cluster fingerprint adds HashCompactionRequests when compaction runs.
TEST(DatanodeFingerprintCompletenessTest, CompactionRequestsChangeTheirHash) {
  ObjectStore store;
  const Datanode base = Built(store);
  auto hash = [](const Datanode& dn) {
    sim::Hasher h;
    dn.HashCompactionRequests(h);
    return h.Finish();
  };
  Datanode changed = base;
  R1(changed).set_compaction_requested(!R1(changed).compaction_requested());
  EXPECT_NE(hash(changed), hash(base));
  EXPECT_EQ(changed.Fingerprint(), base.Fingerprint());
}

TEST(DatanodeFingerprintCompletenessTest, StagingInfoFieldsChangeTheFingerprint) {
  const StagingInfo base = StagingInfo::UpdatePartitionExpr(Range(0, 50));
  ExpectEachMutationChangesFingerprint<StagingInfo>(
      base, HashOf<StagingInfo>,
      {
          {"directive", [](StagingInfo& s) { s.directive = StagingDirective::kRejectAllWrites; }},
          {"partition_expr", [](StagingInfo& s) { s.partition_expr = Range(0, 60); }},
          {"version", [](StagingInfo& s) { ++s.version; }},
      });
}

TEST(DatanodeFingerprintCompletenessTest, WalEntriesAndLastEntryIdChangeTheFingerprint) {
  RegionWal base;
  base.Append(MakeWriteBatch(1, 1, {R(1, 1, 1)}));
  base.Append(MakeWriteBatch(2, 2, {R(2, 2, 2)}));
  ExpectEachMutationChangesFingerprint<RegionWal>(
      base, HashOf<RegionWal>,
      {
          {"entries_ (truncated)", [](RegionWal& w) { w.Truncate(1); }},
          {"entries_ (content)",
           [](RegionWal& w) {
             w = RegionWal{};
             w.Append(MakeWriteBatch(1, 1, {R(1, 1, 1)}));
             w.Append(MakeWriteBatch(2, 2, {R(2, 2, 3)}));
           }},
      });
  // Two empty WALs that differ only in the last entry id (ids are never reused).
  RegionWal a = base, b = base;
  a.Truncate(2);
  b.Append(MakeWriteBatch(3, 3, {R(3, 3, 3)}));
  b.Truncate(3);
  ASSERT_TRUE(a.entries().empty());
  ASSERT_TRUE(b.entries().empty());
  EXPECT_NE(HashOf(a), HashOf(b));
}

}  // namespace fingerprint_completeness_test
}  // namespace
}  // namespace repartsim::model
