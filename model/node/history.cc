#include "model/node/history.h"

#include <algorithm>
#include <string_view>

#include "model/partition/row_pack.h"
#include "sim/assert.h"

namespace repartsim::model {

const char* WriteStatusName(WriteStatus status) {
  switch (status) {
    case WriteStatus::kPending:
      return "pending";
    case WriteStatus::kAcked:
      return "acked";
    case WriteStatus::kRejected:
      return "rejected";
    case WriteStatus::kUnknown:
      return "unknown";
  }
  REPARTSIM_UNREACHABLE();
}

const std::string& RareText::str() const {
  static const std::string kEmpty;
  return text_ == nullptr ? kEmpty : *text_;
}

WriteRecord& History::Write(uint64_t id) {
  REPARTSIM_ASSERT(id >= 1 && id <= writes.size());
  REPARTSIM_ASSERT(writes[id - 1].id == id);
  return writes[id - 1];
}

void History::Accept(uint64_t step, NodeId node, RegionId region, uint64_t write_id,
                     const std::vector<Row>& rows) {
  Acceptance& a = acceptances.emplace_back();
  a.step = step;
  a.node = node;
  a.region = region;
  a.write_id = write_id;
  // Each accepted row as a bit of the record's rows: the first equal row not taken yet.
  const auto as_bits = [&](const std::vector<Row>& written) {
    if (written.size() > 64) return false;
    uint64_t bits = 0;
    for (const Row& row : rows) {
      size_t i = 0;
      while (i < written.size() && (((bits >> i) & 1) != 0 || written[i] != row)) ++i;
      if (i == written.size()) return false;
      bits |= uint64_t{1} << i;
    }
    a.write_rows = bits;
    return true;
  };
  const bool known =
      write_id >= 1 && write_id <= writes.size() && writes[write_id - 1].id == write_id;
  if (known && WithRowsOf(writes[write_id - 1], as_bits)) return;
  a.own_rows = static_cast<uint32_t>(own_accepted_rows.size());
  own_accepted_rows.push_back(rows);
}

const std::vector<Row>& History::OwnRows(const Acceptance& a) const {
  static const std::vector<Row> kNone;
  return a.own_rows == Acceptance::kNoOwnRows ? kNone : own_accepted_rows[a.own_rows];
}

QueryRecord& History::Query(uint64_t id) {
  REPARTSIM_ASSERT(id > retired_queries && id - retired_queries <= queries.size());
  QueryRecord& q = queries[id - 1 - retired_queries];
  REPARTSIM_ASSERT(q.id == id);
  return q;
}

const QueryRecord& History::Query(uint64_t id) const {
  return const_cast<History*>(this)->Query(id);
}

DdlRecord& History::Ddl(uint64_t id) {
  REPARTSIM_ASSERT(id >= 1 && id <= ddls.size());
  REPARTSIM_ASSERT(ddls[id - 1].id == id);
  return ddls[id - 1];
}

const ProcedureEnd* History::EndOf(uint64_t procedure) const {
  for (const ProcedureEnd& end : procedure_ends) {
    if (end.procedure == procedure) return &end;
  }
  return nullptr;
}

void History::Hash(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(writes.size()));
  for (const WriteRecord& w : writes) h.Add(static_cast<uint64_t>(w.status));
  h.Add(static_cast<uint64_t>(retired_queries + queries.size()));
  for (uint64_t row_count : retired_row_counts) {
    h.Add(static_cast<uint64_t>(QueryStatus::kOk)).Add(row_count);
  }
  for (const QueryRecord& q : queries) {
    h.Add(static_cast<uint64_t>(q.status)).Add(q.row_count);
  }
  h.Add(static_cast<uint64_t>(ddls.size()));
  for (const DdlRecord& d : ddls) {
    h.Add(static_cast<uint64_t>(d.status)).Add(static_cast<uint64_t>(d.procedures.size()));
    for (uint64_t p : d.procedures) h.Add(p);
  }
  h.Add(static_cast<uint64_t>(ownership_breaches.size()));
  h.Add(static_cast<uint64_t>(procedure_ends.size()));
}

std::vector<Row> History::RowsOf(const WriteRecord& w) const {
  if (!w.packed) return w.rows;
  REPARTSIM_ASSERT(w.packed_chunk < packed_rows.size());
  const std::string& chunk = packed_rows[w.packed_chunk];
  REPARTSIM_ASSERT(w.packed_offset < chunk.size());
  return UnpackRows(std::string_view(chunk).substr(w.packed_offset));
}

}  // namespace repartsim::model
