// Row ordering and dedup of the mito read and flush paths. The dedup key is the primary key
// columns (schema order of primary_key) then the time index, compared with TotalOrder.
// MergeRefs sorts by (key ascending, sequence descending); with dedup it keeps only the newest
// row of each key (last write wins by sequence, mito's need_dedup = !append_mode).
// MergeSortedRuns gives the same result from runs already in that order (SST files, the
// region's sorted memtable index) by merging them, as mito's merge reader does.
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

// The order MergeRefs sorts by: key ascending, then sequence descending, then the whole row
// (equal key and sequence arise only across regions' files). A strict total order up to
// identical (row, sequence) pairs, so every correct sort or merge gives the same sequence.
bool RefBefore(const TableSchema& schema, const SeqRowRef& x, const SeqRowRef& y);

// Sorts `refs` and, if `dedup`, removes every ref shadowed by a newer one with the same key.
void MergeRefs(const TableSchema& schema, std::vector<SeqRowRef>& refs, bool dedup);

// The same result as MergeRefs when `refs` is made of runs each already sorted by RefBefore:
// run i is [starts[i], starts[i + 1]) and the last one ends at refs.end() (starts ascending,
// starts[0] == 0 when refs is not empty). Merges the runs (O(n) per run) instead of sorting.
void MergeSortedRuns(const TableSchema& schema, std::vector<SeqRowRef>& refs,
                     const std::vector<size_t>& starts, bool dedup);

}  // namespace repartsim::model
