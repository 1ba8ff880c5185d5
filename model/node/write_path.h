// The three ways an INSERT reaches the datanodes (docs/protocol.md section 5): the row path
// (one region per row, stamped with the region's expression version), the pending-rows
// batcher (vectorised split, unversioned) and the Flight bulk insert (vectorised split, one
// request per region, stamped with the version). Plain data.
#pragma once

#include <cstdint>

namespace repartsim::model {

enum class WritePath : uint8_t {
  // INSERT through the row inserter (src/operator/src/insert.rs).
  kRow = 0,
  // Scenario `bulk`: the pending-rows batcher (src/servers/src/pending_rows_batcher.rs).
  kBatcher = 1,
  // Scenario `flight`: the Flight bulk insert (src/operator/src/bulk_insert.rs).
  kFlight = 2,
};

// History's WriteRecord value-initialises its path (it declares WritePath opaquely): kRow.
static_assert(static_cast<uint8_t>(WritePath::kRow) == 0);

// "row", "bulk", "flight": the scenario's names, also the trace's.
constexpr const char* WritePathName(WritePath path) {
  switch (path) {
    case WritePath::kRow:
      return "row";
    case WritePath::kBatcher:
      return "bulk";
    case WritePath::kFlight:
      return "flight";
  }
  return "row";
}

// Both bulk paths split a batch with the filter-path predicate (a row may match several
// expressions; an unmatched row goes to region 0).
constexpr bool SplitsVectorised(WritePath path) { return path != WritePath::kRow; }

}  // namespace repartsim::model
