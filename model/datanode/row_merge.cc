#include "model/datanode/row_merge.h"

#include <algorithm>

#include "sim/assert.h"

namespace repartsim::model {

int CompareRowKey(const TableSchema& schema, const Row& a, const Row& b) {
  for (size_t column : schema.primary_key) {
    REPARTSIM_ASSERT(column < a.size() && column < b.size());
    int c = TotalOrder(a[column], b[column]);
    if (c != 0) return c;
  }
  REPARTSIM_ASSERT(schema.time_index < a.size() && schema.time_index < b.size());
  return TotalOrder(a[schema.time_index], b[schema.time_index]);
}

namespace {

int CompareWholeRow(const Row& a, const Row& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    int c = TotalOrder(a[i], b[i]);
    if (c != 0) return c;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

}  // namespace

bool RefBefore(const TableSchema& schema, const SeqRowRef& x, const SeqRowRef& y) {
  int c = CompareRowKey(schema, *x.row, *y.row);
  if (c != 0) return c < 0;
  if (x.sequence != y.sequence) return x.sequence > y.sequence;
  // Equal key and sequence only arise across regions' files (independent sequence
  // counters); order by the whole row so the result never depends on input order.
  return CompareWholeRow(*x.row, *y.row) < 0;
}

namespace {

// Keeps the first (newest) ref of each key of the sorted `refs`.
void DedupSorted(const TableSchema& schema, std::vector<SeqRowRef>& refs) {
  size_t kept = 0;
  for (size_t i = 0; i < refs.size(); ++i) {
    if (kept > 0 && CompareRowKey(schema, *refs[kept - 1].row, *refs[i].row) == 0) {
      continue;
    }
    refs[kept++] = refs[i];
  }
  refs.resize(kept);
}

}  // namespace

void MergeRefs(const TableSchema& schema, std::vector<SeqRowRef>& refs, bool dedup) {
  std::sort(refs.begin(), refs.end(),
            [&schema](const SeqRowRef& x, const SeqRowRef& y) { return RefBefore(schema, x, y); });
  if (dedup) DedupSorted(schema, refs);
}

void MergeSortedRuns(const TableSchema& schema, std::vector<SeqRowRef>& refs,
                     const std::vector<size_t>& starts, bool dedup) {
  auto before = [&schema](const SeqRowRef& x, const SeqRowRef& y) {
    return RefBefore(schema, x, y);
  };
  // [0, merged) is sorted; fold each following run into it.
  for (size_t i = 1; i < starts.size(); ++i) {
    const size_t end = i + 1 < starts.size() ? starts[i + 1] : refs.size();
    REPARTSIM_ASSERT(starts[i - 1] <= starts[i] && starts[i] <= end);
    std::inplace_merge(refs.begin(), refs.begin() + static_cast<std::ptrdiff_t>(starts[i]),
                       refs.begin() + static_cast<std::ptrdiff_t>(end), before);
  }
  if (dedup) DedupSorted(schema, refs);
}

}  // namespace repartsim::model
