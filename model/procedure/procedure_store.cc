#include "model/procedure/procedure_store.h"

#include <cstdio>

#include "sim/assert.h"

namespace repartsim::model {

namespace {

const char* RecordSuffix(RecordKind kind) {
  switch (kind) {
    case RecordKind::kStep:
      return "step";
    case RecordKind::kCommit:
      return "commit";
    case RecordKind::kRollback:
      return "rollback";
  }
  REPARTSIM_UNREACHABLE();
}

}  // namespace

std::string ProcedureStore::Key(ProcedureId root, ProcedureId id, uint32_t step,
                                RecordKind kind) {
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "%020llu/%020llu/%010u.%s",
                static_cast<unsigned long long>(root.value),
                static_cast<unsigned long long>(id.value), step, RecordSuffix(kind));
  return buffer;
}

void ProcedureStore::Write(const ProcedureRecord& record) {
  REPARTSIM_ASSERT(record.id.valid());
  REPARTSIM_ASSERT(record.root.valid());
  records_[Key(record.root, record.id, record.step, record.kind)] = record;
}

void ProcedureStore::DeleteProcedures(const std::vector<ProcedureId>& ids) {
  std::erase_if(records_, [&](const auto& entry) {
    for (ProcedureId id : ids) {
      if (entry.second.id == id) return true;
    }
    return false;
  });
}

void ProcedureStore::DeleteCommitRecords() {
  std::erase_if(records_,
                [](const auto& entry) { return entry.second.kind == RecordKind::kCommit; });
}

std::vector<ProcedureRecord> ProcedureStore::Latest() const {
  std::map<ProcedureId, const ProcedureRecord*> latest;
  for (const auto& [key, record] : records_) {
    const ProcedureRecord*& slot = latest[record.id];
    // Keys sort by step within a procedure; a later record at the same step (commit or
    // rollback after a step record) wins by kind order.
    if (slot == nullptr || slot->step < record.step ||
        (slot->step == record.step && slot->kind < record.kind)) {
      slot = &record;
    }
  }
  std::vector<ProcedureRecord> out;
  out.reserve(latest.size());
  for (const auto& [id, record] : latest) out.push_back(*record);
  return out;
}

std::vector<ProcedureId> ProcedureStore::ProcedureIds() const {
  std::vector<ProcedureId> ids;
  for (const auto& [key, record] : records_) {
    if (ids.empty() || !(ids.back() == record.id)) ids.push_back(record.id);
  }
  return ids;
}

void ProcedureStore::Fingerprint(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(records_.size()));
  for (const auto& [key, record] : records_) {
    h.Add(key);
    h.Add(record.parent.value);
    h.Add(record.type);
    h.Add(record.body);
  }
}

}  // namespace repartsim::model
