#include "checker/run/history_retention.h"

#include <algorithm>
#include <string>
#include <vector>

#include "model/partition/row_pack.h"
#include "sim/assert.h"

namespace repartsim::run {

void PackWriteRows(model::History& history, uint64_t id) {
  model::WriteRecord& w = history.Write(id);
  if (w.packed) return;
  std::string pack;
  model::PackRows(w.rows, pack);
  std::vector<std::string>& chunks = history.packed_rows;
  if (chunks.empty() || chunks.back().size() + pack.size() > chunks.back().capacity()) {
    chunks.emplace_back().reserve(std::max(model::History::kPackedChunkBytes, pack.size()));
  }
  std::string& chunk = chunks.back();
  // The offsets are 32-bit: a chunk holds at most one pack beyond kPackedChunkBytes.
  REPARTSIM_ASSERT(chunks.size() <= UINT32_MAX && chunk.size() <= UINT32_MAX);
  w.packed = true;
  w.packed_chunk = static_cast<uint32_t>(chunks.size() - 1);
  w.packed_offset = static_cast<uint32_t>(chunk.size());
  chunk += pack;
  std::vector<model::Row>().swap(w.rows);
  REPARTSIM_ASSERT(w.rows.capacity() == 0);
}

void ReleasePassedQuery(model::History& history, size_t index) {
  model::QueryRecord& q = history.Query(index + 1);
  REPARTSIM_ASSERT(q.status == model::QueryStatus::kOk);
  std::vector<model::Row>().swap(q.rows);
  q.where.reset();
  std::string().swap(q.sql);
  std::vector<model::RegionId>().swap(q.regions);
}

void RetireFrontQuery(model::History& history) {
  REPARTSIM_ASSERT(!history.queries.empty());
  const model::QueryRecord& q = history.queries.front();
  REPARTSIM_ASSERT(q.status == model::QueryStatus::kOk && q.rows.empty() && q.sql.empty());
  history.retired_row_counts.push_back(q.row_count);
  history.queries.pop_front();
  ++history.retired_queries;
}

}  // namespace repartsim::run
