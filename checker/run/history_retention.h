// What the checker forgets of a run's History once it has judged it (checker/run/query_watch.h
// decides when): a long run would otherwise keep every row it wrote and every result and
// statement it read. The History (model/node/history.h) is the model's plain record of what
// clients did; these functions only shrink records the checker no longer reads, and keep what
// reports and the state fingerprint use (ids, outcomes, row counts, packed rows).
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/node/history.h"

namespace repartsim::run {

// Keeps the rows of write `id` packed (model/partition/row_pack.h) and frees them as Values:
// a long run keeps a compact copy of what reports name (History::RowsOf reads it back).
// REQUIRES: the oracle released every version the write carries (check::Oracle::TakeColdWrites
// returned `id`): nothing reads its rows in place any more. Packing twice changes nothing.
void PackWriteRows(model::History& history, uint64_t id);

// Drops the rows, WHERE, SQL text and scanned regions of query `index + 1`, which the checker
// has checked and passed: only a query that fails is reported, and it keeps them. Its outcome,
// row_count and count stay. REQUIRES: the query passed (status kOk; checked).
void ReleasePassedQuery(model::History& history, size_t index);

// Drops history.queries.front(), which passed and was released: a passed query is only ever
// counted from then on (its row count stays in retired_row_counts, so History::Hash is
// unchanged). REQUIRES: the front query passed and was released (checked).
void RetireFrontQuery(model::History& history);

}  // namespace repartsim::run
