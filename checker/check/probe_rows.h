// Liveness write probes (INV-LIVE "every row value is writable again"): which rows to write
// once faults healed and the cluster is quiescent. One probe per distinct partition-key tuple
// among the rows the run wrote (any outcome), in first-seen order, capped, plus the first
// tuple of every region of the final route that the cap left unrepresented. A probe copies
// the first row with its tuple; the caller gives each attempt a fresh time index (above any
// written) so a probe never overwrites, nor in append mode duplicates, an existing row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "model/meta/ids.h"
#include "model/partition/expr.h"
#include "model/partition/schema.h"

namespace repartsim::check {

// A region of the final route; `expr` nullptr means it owns every row (unpartitioned).
struct ProbeRegion {
  model::RegionId region;
  const model::PartitionExpr* expr = nullptr;
};

// The first region (route order) whose expression covers `row` by the row path (the path
// writes are routed by), or nullptr when none does.
const ProbeRegion* RegionCovering(const std::vector<ProbeRegion>& regions,
                                  const model::TableSchema& schema, const model::Row& row);

// The first row of each distinct partition-key tuple among the rows added, in first-seen
// order: what ChooseProbeRows keeps of its `written` rows, gathered a write at a time so that
// a caller need not hold every row of a run at once. `partition_columns` as ChooseProbeRows'.
class FirstRowsByTuple {
 public:
  FirstRowsByTuple(const model::TableSchema& schema,
                   const std::vector<std::string>& partition_columns);
  // Keeps a copy of `row` when its tuple is new.
  void Add(const model::Row& row);
  const std::vector<model::Row>& rows() const { return rows_; }

 private:
  std::vector<size_t> columns_;
  std::set<std::string> seen_;
  std::string key_;  // scratch
  std::vector<model::Row> rows_;
};

// `written`: every written row in History order. `partition_columns`: the table's partition
// key columns (empty: one tuple). Returns the probe rows (time index still the first row's).
// Columns named but missing from the schema read as NULL (the tuple ignores them).
std::vector<model::Row> ChooseProbeRows(const model::TableSchema& schema,
                                        const std::vector<std::string>& partition_columns,
                                        const std::vector<const model::Row*>& written,
                                        const std::vector<ProbeRegion>& regions, size_t cap);

// 1 + the largest time index among `written` (0 when there is none or all are NULL); the
// time index column stores timestamps or integers.
int64_t FreshTimeIndex(const model::TableSchema& schema,
                       std::span<const model::Row* const> written);
// The time index of a row's value as an integer (ms for timestamps); nullopt for NULL.
std::optional<int64_t> TimeIndexOf(const model::Value& value);
// `row` with its time index set to `value`, in the column's storage type.
model::Row WithTimeIndex(const model::TableSchema& schema, model::Row row, int64_t value);

}  // namespace repartsim::check
