// The write-ahead log of one region on a datanode (raft-engine namespace): durable across a
// datanode crash. Entries are shared write batches in entry-id order; Truncate(id) obsoletes
// every entry with entry_id <= id (after a flush). last_entry_id survives truncation, so
// entry ids are never reused.
#pragma once

#include <cstdint>
#include <vector>

#include "model/datanode/write_batch.h"
#include "sim/assert.h"
#include "sim/fingerprint.h"

namespace repartsim::model {

class RegionWal {
 public:
  void Append(WriteBatchPtr batch) {
    REPARTSIM_ASSERT(batch != nullptr);
    REPARTSIM_ASSERT(batch->entry_id > last_entry_id_);
    last_entry_id_ = batch->entry_id;
    entries_.push_back(std::move(batch));
  }
  void Truncate(uint64_t up_to_entry_id) {
    size_t keep_from = 0;
    while (keep_from < entries_.size() && entries_[keep_from]->entry_id <= up_to_entry_id) {
      ++keep_from;
    }
    entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(keep_from));
  }
  const std::vector<WriteBatchPtr>& entries() const { return entries_; }
  uint64_t last_entry_id() const { return last_entry_id_; }

  void Hash(sim::Hasher& h) const {
    h.Add(last_entry_id_);
    h.Add(static_cast<uint64_t>(entries_.size()));
    for (const WriteBatchPtr& b : entries_) h.Add(b->content_hash);
  }

 private:
  std::vector<WriteBatchPtr> entries_;
  uint64_t last_entry_id_ = 0;
};

}  // namespace repartsim::model
