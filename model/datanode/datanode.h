// A datanode (mito engine + region server): its open regions (ordered by RegionId), a durable
// WAL per region, and a durable registry of the regions it hosts (reopened on restart, standing
// in for the __dn_table keys). Handlers are synchronous and run atomically inside one simulation
// event, except at named crash points between durable writes: when the CrashHook fires the
// handler returns kCrashed and the caller must call Crash(). SST files and manifests live in the
// shared ObjectStore passed to each handler. REQUIRES: is_up() for every handler.
// Write acceptance follows reference 3.2 exactly; leases follow 5.4. Plain value: copy =
// snapshot; Hash covers all state that affects future behaviour.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "model/datanode/crash_hook.h"
#include "model/datanode/object_store.h"
#include "model/datanode/region.h"
#include "model/datanode/region_wal.h"
#include "model/datanode/reply.h"
#include "model/meta/ids.h"
#include "model/meta/region_route.h"
#include "model/partition/expr.h"
#include "model/protocol.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

class Datanode {
 public:
  explicit Datanode(NodeId id) : id_(id) {}

  NodeId id() const { return id_; }
  bool is_up() const { return up_; }

  // ---- region requests -------------------------------------------------------------------
  // Write `rows` (one Value per schema column) stamped with the frontend's expression version.
  Reply HandleWrite(RegionId region, std::vector<Row> rows, std::optional<uint64_t> version,
                    const Protocol& protocol, CrashHook& crash);
  // Memtable + visible files; files whose expression differs from the region's committed one
  // are row-filtered by it (filter-path semantics); dedup unless append mode. Under
  // Rule::kFencedReads a planned version that is neither the committed nor the staging version
  // is rejected with kPartitionExprVersionMismatch.
  ScanReply HandleScan(RegionId region, std::optional<uint64_t> planned_version,
                       const Protocol& protocol, const ObjectStore& store) const;
  // Creates the region (or adopts an existing manifest) and opens it Writable. Idempotent.
  Reply HandleCreateRegion(RegionId region, const TableSchema& schema,
                           std::optional<PartitionExpr> expr, ObjectStore& store,
                           CrashHook& crash);
  // Opens a region from its manifest as a Follower, replaying the WAL. Idempotent.
  Reply HandleOpenRegion(RegionId region, const ObjectStore& store);
  // Closes the region here (volatile state dropped; WAL and manifest stay). Idempotent.
  Reply HandleCloseRegion(RegionId region);
  // Deletes the manifest, staging area and WAL. Ok when the region is not here (idempotent).
  Reply HandleDropRegion(RegionId region, ObjectStore& store, CrashHook& crash);
  // Flushes the memtable to an SST: normal manifest edit (or a staged edit while Staging),
  // then WAL truncation. Ok with no file when the memtable is empty.
  Reply HandleFlush(RegionId region, ObjectStore& store, CrashHook& crash);

  // ---- staging (reference 5.4) -----------------------------------------------------------
  Reply HandleEnterStaging(RegionId region, const StagingInfo& directive, ObjectStore& store,
                           CrashHook& crash);
  // Central region: remaps the persisted normal manifests of `inputs` into one manifest per
  // target (src -> [dst] in `mapping`), stored as remap blobs in the central's staging storage.
  Reply HandleRemapManifest(RegionId central, const std::vector<RegionId>& inputs,
                            const std::map<RegionId, std::vector<RegionId>>& mapping,
                            const std::map<RegionId, std::optional<PartitionExpr>>& target_exprs,
                            ObjectStore& store, CrashHook& crash);
  Reply HandleApplyStagingManifest(RegionId region, const std::optional<PartitionExpr>& expr,
                                   RegionId central, ObjectStore& store, CrashHook& crash);

  // ---- leases (reference 5.4) ------------------------------------------------------------
  // Applies the lease role granted for `region` and renews its deadline. Returns false when the
  // region is not open here.
  bool ApplyLease(RegionId region, RegionRole role, sim::SimTime deadline,
                  const Protocol& protocol);
  // Every region whose lease deadline is <= now becomes a Follower (leaving staging).
  // Returns the regions demoted.
  std::vector<RegionId> ExpireLeases(sim::SimTime now);
  // The earliest lease deadline of an open region, if any.
  std::optional<sim::SimTime> NextLeaseDeadline() const;

  // ---- faults ----------------------------------------------------------------------------
  // Loses every open region (memtables, roles, staging info). WAL and registry stay.
  void Crash();
  // Comes back up and opens every hosted region that still has a manifest, as a Follower.
  void Reopen(const ObjectStore& store);

  const Region* FindRegion(RegionId region) const;
  const std::map<RegionId, Region>& regions() const { return regions_; }
  const std::set<RegionId>& hosted() const { return hosted_; }
  const RegionWal* Wal(RegionId region) const;

  void Hash(sim::Hasher& h) const;
  uint64_t Fingerprint() const;

 private:
  Region* FindMutable(RegionId region);
  void OpenFromManifest(const RegionManifest& manifest, RegionState state);
  void LeaveStagingWithoutMerge(Region& region);

  NodeId id_;
  bool up_ = true;
  std::map<RegionId, Region> regions_;
  std::map<RegionId, RegionWal> wals_;
  std::set<RegionId> hosted_;
};

}  // namespace repartsim::model
