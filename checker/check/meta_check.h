// INV-META at quiescence, over plain data the cluster fills in: the table route, the
// partition metadata, the regions open on every datanode and the allocation history.
// Holds iff each routed region has partition metadata with the same expression version, is
// open on its route leader as leader with that version, nothing is staging, no open region
// is unrouted (orphaned), and no region id was allocated twice. One Violation per problem,
// in region order, each naming its region; expression versions print as 0x%016x.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/check/check_at.h"
#include "checker/check/violation.h"
#include "model/meta/ids.h"

namespace repartsim::check {

struct RoutedRegion {
  model::RegionId region;
  std::optional<model::NodeId> leader;
  uint64_t expr_version = 0;
  bool staging = false;  // leader_state Staging in the route
};

struct PartitionEntry {
  model::RegionId region;
  uint64_t expr_version = 0;
};

struct OpenRegion {
  model::NodeId node;
  model::RegionId region;
  bool leader = false;
  uint64_t expr_version = 0;
  bool staging = false;
};

struct MetaState {
  std::vector<RoutedRegion> routes;
  std::vector<PartitionEntry> partitions;
  std::vector<OpenRegion> open_regions;
  std::vector<model::RegionId> allocations;  // every region id ever allocated, in order
  // The text of each expression version the state holds, for messages (a version not in it
  // prints as its number).
  std::map<uint64_t, std::string> expressions = {};
};

// Messages:
//   "region R is routed but has no partition metadata"
//   "region R has partition metadata but is not routed"
//   "region R has expression `E` in its route but expression `F` in the partition metadata"
//   "region R is routed without a leader"
//   "region R is routed to node N but not open there"
//   "region R is open on its route leader node N as a follower"
//   "region R is open on node N with expression version 0x.. but routed with 0x.."
//   "region R is still staging in its route"
//   "region R is still staging on node N"
//   "region R is open on node N but not routed (orphaned)"
//   "region R was allocated 2 times (region numbers must never be reused)"
std::vector<Violation> CheckMeta(const MetaState& state, CheckAt at);

// Decimal, as the datanodes' own errors print expression versions ("request 17049039589619737785,
// expected 8034692573255843343"), so one version reads the same in every message.
// "expression `a < 5`" when `state` knows the text of `version`, else "expression version N"
// (issue 53: the raw 64-bit hashes alone told nothing).
std::string FormatVersion(uint64_t version, const MetaState& state);

}  // namespace repartsim::check
