// PartitionView: the write-side and read-side partition views a frontend builds from one cached
// table route (docs/protocol.md sections 5.1, 2.3). Pure functions over plain data.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/partition/rule.h"
#include "model/protocol/protocol.h"

namespace repartsim::model {

struct PartitionView {
  PartitionRule write_rule;               // excludes IgnoreAllWrites routes
  std::map<uint32_t, uint64_t> versions;  // region number -> version (write side)
  std::vector<RegionId> read_regions;     // every route (read side)
};

// Builds the partition views the real frontend builds: regions = every write partition, exprs =
// only those with an expression; under Rule::kAlignedPartitionRule an expression-less region
// is left out of both lists (P3 fix).
PartitionView BuildPartitionView(const TableRoute& route, const TableInfo& info,
                                 const Protocol& protocol);

// The route of region number `number` in `route`, or nullptr.
const RegionRoute* RouteOfNumber(const TableRoute& route, uint32_t number);

}  // namespace repartsim::model
