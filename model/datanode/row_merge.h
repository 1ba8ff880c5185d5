// Row ordering and dedup of the mito read and flush paths. The dedup key is the primary key
// columns (schema order of primary_key) then the time index, compared with TotalOrder.
// MergeRefs sorts by (key ascending, sequence descending); with dedup it keeps only the newest
// row of each key (last write wins by sequence, mito's need_dedup = !append_mode).
#pragma once

#include <cstdint>
#include <vector>

#include "model/partition/schema.h"

namespace repartsim::model {

struct SeqRowRef {
  const Row* row = nullptr;
  uint64_t sequence = 0;
};

// <0, 0, >0 comparing the dedup keys of `a` and `b`.
int CompareRowKey(const TableSchema& schema, const Row& a, const Row& b);

// Sorts `refs` and, if `dedup`, removes every ref shadowed by a newer one with the same key.
void MergeRefs(const TableSchema& schema, std::vector<SeqRowRef>& refs, bool dedup);

}  // namespace repartsim::model
