#include "model/node/history.h"

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

WriteRecord& History::Write(uint64_t id) {
  REPARTSIM_ASSERT(id >= 1 && id <= writes.size());
  REPARTSIM_ASSERT(writes[id - 1].id == id);
  return writes[id - 1];
}

QueryRecord& History::Query(uint64_t id) {
  REPARTSIM_ASSERT(id >= 1 && id <= queries.size());
  REPARTSIM_ASSERT(queries[id - 1].id == id);
  return queries[id - 1];
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
  h.Add(static_cast<uint64_t>(queries.size()));
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

void History::ReleaseQueryRows(size_t index) {
  REPARTSIM_ASSERT(index < queries.size());
  std::vector<Row>().swap(queries[index].rows);
}

}  // namespace repartsim::model
