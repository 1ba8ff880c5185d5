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

void MergeRefs(const TableSchema& schema, std::vector<SeqRowRef>& refs, bool dedup) {
  std::sort(refs.begin(), refs.end(), [&schema](const SeqRowRef& x, const SeqRowRef& y) {
    int c = CompareRowKey(schema, *x.row, *y.row);
    if (c != 0) return c < 0;
    if (x.sequence != y.sequence) return x.sequence > y.sequence;
    // Equal key and sequence only arise across regions' files (independent sequence
    // counters); order by the whole row so the result never depends on input order.
    return CompareWholeRow(*x.row, *y.row) < 0;
  });
  if (!dedup) return;
  size_t kept = 0;
  for (size_t i = 0; i < refs.size(); ++i) {
    if (kept > 0 && CompareRowKey(schema, *refs[kept - 1].row, *refs[i].row) == 0) {
      continue;
    }
    refs[kept++] = refs[i];
  }
  refs.resize(kept);
}

}  // namespace repartsim::model
