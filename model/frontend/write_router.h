// The frontend's write router: splits an INSERT's rows over the regions of one cached route
// (the row path, or one of the two bulk paths that may send a row to several regions), stamps
// each region write with the region's expression version (except the unversioned batcher), and
// groups the writes by leader datanode. docs/protocol.md section 5. A pure function over plain
// data.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/frontend/route_cache.h"
#include "model/meta/ids.h"
#include "model/node/message.h"
#include "model/node/write_path.h"
#include "model/partition/schema.h"
#include "model/protocol/protocol.h"

namespace repartsim::model {

struct WriteRouting {
  // The region writes to send, by leader. The row path and the batcher send one request per
  // datanode; the Flight path one request per region write (the frontend splits the list).
  std::map<NodeId, std::vector<RegionWrite>> by_node;
  uint32_t error_count = 0;  // rows or regions that could not be routed
  std::string error;         // the last such error; "" when none
};

// Routes `rows` of table `table` (one Value per schema column) with `cached`'s route and info.
// A row path that meets an expression naming a non-partition column fails the whole insert
// (nothing is routed, unless Rule::kRowPathOverSchema); under Rule::kUnifiedNullRouting a row no
// region owns is refused; a region without a leader refuses its rows.
WriteRouting RouteWrite(const CachedTable& cached, TableId table, std::vector<Row> rows,
                        WritePath path, const Protocol& protocol);

}  // namespace repartsim::model
