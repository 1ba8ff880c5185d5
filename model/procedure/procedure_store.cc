#include "model/procedure/procedure_store.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "sim/assert.h"

namespace repartsim::model {

PersistedBody::PersistedBody(std::string dump)
    : shared_(std::make_shared<const Shared>(Shared{AnyBody(), std::move(dump), std::nullopt})) {}

PersistedBody PersistedBody::Of(AnyBody snapshot) {
  REPARTSIM_ASSERT(!snapshot.empty());
  PersistedBody body;
  body.shared_ =
      std::make_shared<const Shared>(Shared{std::move(snapshot), std::nullopt, std::nullopt});
  return body;
}

uint64_t PersistedBody::hash() const {
  if (shared_ == nullptr) return sim::Hasher().Add(std::string_view()).Finish();
  if (!shared_->hash.has_value()) shared_->hash = sim::Hasher().Add(dump()).Finish();
  return *shared_->hash;
}

const std::string& PersistedBody::dump() const {
  static const std::string kEmpty;
  if (shared_ == nullptr) return kEmpty;
  if (!shared_->dump.has_value()) {
    shared_->dump = shared_->snapshot.Dump();
    shared_->snapshot = AnyBody();
  }
  return *shared_->dump;
}

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

std::string ProcedureStore::Key(ProcedureId root, ProcedureId id, uint32_t step, RecordKind kind) {
  REPARTSIM_ASSERT(root.valid() && id.valid());
  char buffer[96];
  const int length =
      std::snprintf(buffer, sizeof(buffer), "%020llu/%020llu/%010u.%s",
                    static_cast<unsigned long long>(root.value),
                    static_cast<unsigned long long>(id.value), step, RecordSuffix(kind));
  // Fixed-width fields: keys sort by root, then procedure, then step (Latest relies on it).
  REPARTSIM_ASSERT(length > 53 && static_cast<size_t>(length) < sizeof(buffer));
  return buffer;
}

void ProcedureStore::Write(const ProcedureRecord& record) {
  REPARTSIM_ASSERT(record.id.valid());
  REPARTSIM_ASSERT(record.root.valid());
  REPARTSIM_ASSERT(record.root == record.id || record.parent.valid());  // only roots lack one
  records_[Key(record.root, record.id, record.step, record.kind)] = record;
}

void ProcedureStore::DeleteProcedures(const std::vector<ProcedureId>& ids) {
  std::erase_if(records_, [&](const auto& entry) {
    for (ProcedureId id : ids) {
      if (entry.second.id == id) return true;
    }
    return false;
  });
  for (ProcedureId id : ids) {
    REPARTSIM_ASSERT(std::none_of(records_.begin(), records_.end(),
                                  [&](const auto& entry) { return entry.second.id == id; }));
  }
}

void ProcedureStore::DeleteCommitRecords() {
  std::erase_if(records_,
                [](const auto& entry) { return entry.second.kind == RecordKind::kCommit; });
  REPARTSIM_ASSERT(std::none_of(records_.begin(), records_.end(), [](const auto& entry) {
    return entry.second.kind == RecordKind::kCommit;
  }));
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
  // One record per procedure, in id order.
  REPARTSIM_ASSERT(out.size() == latest.size());
  REPARTSIM_ASSERT(records_.empty() == out.empty());
  return out;
}

std::vector<ProcedureId> ProcedureStore::ProcedureIds() const {
  std::vector<ProcedureId> ids;
  for (const auto& [key, record] : records_) {
    if (ids.empty() || !(ids.back() == record.id)) ids.push_back(record.id);
  }
  // A procedure's records are adjacent in key order, so no id repeats.
  REPARTSIM_ASSERT(std::set<ProcedureId>(ids.begin(), ids.end()).size() == ids.size());
  return ids;
}

void ProcedureStore::Fingerprint(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(records_.size()));
  for (const auto& [key, record] : records_) {
    h.Add(key);
    h.Add(record.parent.value);
    h.Add(record.type);
    h.Add(record.body.hash());
  }
}

}  // namespace repartsim::model
