// Route table of a physical table (docs/protocol.md section 2.4): one RegionRoute per region, in
// the order the metasrv keeps them, plus a version bumped by every update and a max region number
// that never decreases (so dropped region numbers are never reused). The partition expression is
// the authoritative routing expression; its text is the canonical JSON text ("" = none) and its
// version is ExprVersion (0 = none). LeaderRegionRole derives the lease role of each peer.
// `leader_state` is one slot that repartition (Staging) and migration (Downgrading) share; it
// changes only through GreptimeDB's setters (src/common/meta/src/rpc/router.rs):
// SetLeaderState overwrites any state, SetLeaderStaging overwrites Downgrading, and
// ClearLeaderStaging clears Staging only. `leader_down_since` is set only while Downgrading.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/meta/ids.h"
#include "model/partition/expr.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

enum class LeaderState : uint8_t { kNone, kStaging, kDowngrading };
enum class WritePolicy : uint8_t { kNormal, kIgnoreAllWrites };
// The role a region lease grants on a datanode (store-api RegionRole plus StagingLeader).
enum class RegionRole : uint8_t { kLeader, kFollower, kDowngradingLeader, kStagingLeader };

std::string_view LeaderStateName(LeaderState state);   // "None", "Staging", "Downgrading"
std::string_view WritePolicyName(WritePolicy policy);  // "Normal", "IgnoreAllWrites"
std::string_view RegionRoleName(RegionRole role);      // "Leader", "Follower", ...

struct RegionRoute {
  RegionId region_id;
  std::optional<PartitionExpr> partition_expr;
  std::optional<NodeId> leader;
  std::vector<NodeId> followers;
  LeaderState leader_state = LeaderState::kNone;
  std::optional<sim::SimTime> leader_down_since;  // set only while Downgrading
  WritePolicy write_policy = WritePolicy::kNormal;

  // Canonical text of the expression, "" when there is none.
  std::string ExprText() const;
  // ExprVersion of the expression, 0 when there is none.
  uint64_t ExprVersionValue() const;
  bool is_staging() const { return leader_state == LeaderState::kStaging; }
  bool is_downgrading() const { return leader_state == LeaderState::kDowngrading; }

  // set_leader_state: `state` replaces whatever the slot holds (Staging included). Entering
  // Downgrading stamps leader_down_since = `now`; staying Downgrading keeps the stamp; any
  // other state clears it. Returns true iff the state changed.
  bool SetLeaderState(LeaderState state, sim::SimTime now);
  // set_leader_staging: Staging, whatever the slot held (Downgrading included); clears
  // leader_down_since.
  void SetLeaderStaging();
  // clear_leader_staging: None iff the slot holds Staging (clearing leader_down_since);
  // Downgrading and None stay as they are.
  void ClearLeaderStaging();
  bool ignores_writes() const { return write_policy == WritePolicy::kIgnoreAllWrites; }

  void Hash(sim::Hasher& h) const;
  friend bool operator==(const RegionRoute&, const RegionRoute&) = default;
};

// The lease role of the leader peer (router.rs leader_region_role): Staging -> StagingLeader,
// Downgrading -> DowngradingLeader, otherwise Leader.
RegionRole LeaderRegionRole(const RegionRoute& route);
// The role `node` holds for this region: the leader role, Follower for a follower peer,
// nullopt when the node hosts no replica of it.
std::optional<RegionRole> RegionRoleOf(const RegionRoute& route, NodeId node);

struct TableRoute {
  std::vector<RegionRoute> region_routes;
  RegionNumber max_region_number;  // only increases
  uint64_t version = 0;            // bumped by every Updated()

  // The route of CREATE TABLE: version 0, max region number = the largest listed (0 if none).
  static TableRoute New(std::vector<RegionRoute> routes);
  // The value after `update(routes)`: version + 1 and max(max_region_number, largest listed).
  TableRoute Updated(std::vector<RegionRoute> routes) const;

  const RegionRoute* Find(RegionId region) const;
  RegionRoute* FindMutable(RegionId region);
  // The next region number to allocate: max_region_number + 1.
  RegionNumber NextRegionNumber() const { return RegionNumber{max_region_number.value + 1}; }

  void Hash(sim::Hasher& h) const;
  friend bool operator==(const TableRoute&, const TableRoute&) = default;
};

}  // namespace repartsim::model
