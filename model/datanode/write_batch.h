// One acknowledged write request as the WAL and the memtable hold it: an immutable batch of rows
// with consecutive sequence numbers (row i has sequence_first + i, as mito's KeyValues) and the
// WAL entry id. Batches are shared (shared_ptr<const>) between the WAL, the memtable and
// snapshots of the cluster; they are never mutated after creation, so sharing is invisible to
// behaviour. content_hash is computed once at creation for cheap fingerprints.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/partition/schema.h"
#include "sim/fingerprint.h"

namespace repartsim::model {

struct WriteBatch {
  uint64_t entry_id = 0;
  uint64_t sequence_first = 0;
  std::vector<Row> rows;
  uint64_t content_hash = 0;

  uint64_t sequence_last() const { return sequence_first + rows.size() - 1; }
};

using WriteBatchPtr = std::shared_ptr<const WriteBatch>;

// Hashes rows in order (each row: its length, then every value).
inline void HashRows(const std::vector<Row>& rows, sim::Hasher& h) {
  h.Add(static_cast<uint64_t>(rows.size()));
  for (const Row& row : rows) {
    h.Add(static_cast<uint64_t>(row.size()));
    for (const Value& v : row) v.Hash(h);
  }
}

// REQUIRES: !rows.empty().
inline WriteBatchPtr MakeWriteBatch(uint64_t entry_id, uint64_t sequence_first,
                                    std::vector<Row> rows) {
  auto batch = std::make_shared<WriteBatch>();
  batch->entry_id = entry_id;
  batch->sequence_first = sequence_first;
  batch->rows = std::move(rows);
  sim::Hasher h;
  h.Add(entry_id);
  h.Add(sequence_first);
  HashRows(batch->rows, h);
  batch->content_hash = h.Finish();
  return batch;
}

}  // namespace repartsim::model
