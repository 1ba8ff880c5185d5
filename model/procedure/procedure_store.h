// ProcedureStore: the durable record log of the procedure framework (docs/protocol.md section 9).
// Keys follow the real layout `{root_id}/{procedure_id}/{step:010}.{step|commit|rollback}`;
// a record's value holds the parent id, the procedure type and the serialized body. The store
// survives a metasrv crash; Latest() gives, per procedure, the record recovery resumes from.
// Ordered map: iteration order is the key order, so recovery is deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/procedure/any_body.h"
#include "model/procedure/procedure.h"
#include "sim/fingerprint.h"

namespace repartsim::model {

enum class RecordKind : uint8_t { kStep, kCommit, kRollback };

// The serialized body of a record. The runner keeps a snapshot of the body at the step and
// serializes it (AnyBody::Dump) only when something reads the record: recovery, or a state
// fingerprint (explore). The result is the same as serializing at the step, and a run without
// a metasrv crash never pays for it. Copies share the snapshot and the serialized text.
class PersistedBody {
 public:
  PersistedBody() = default;
  // Implicit: a body already serialized (tests write records by hand).
  PersistedBody(std::string dump);
  PersistedBody(const char* dump) : PersistedBody(std::string(dump)) {}
  static PersistedBody Of(AnyBody snapshot);

  const std::string& dump() const;
  // sim::Hasher over dump(), computed once (a state fingerprint hashes every stored record).
  uint64_t hash() const;

 private:
  struct Shared {
    mutable AnyBody snapshot;                 // released once dumped
    mutable std::optional<std::string> dump;  // computed on first use
    mutable std::optional<uint64_t> hash;     // computed on first use
  };
  std::shared_ptr<const Shared> shared_;
};

struct ProcedureRecord {
  ProcedureId root;
  ProcedureId id;
  ProcedureId parent;  // 0 for a root
  uint32_t step = 0;
  RecordKind kind = RecordKind::kStep;
  std::string type;
  PersistedBody body;  // Dump() of the procedure body at this step
};

class ProcedureStore {
 public:
  void Write(const ProcedureRecord& record);
  // Deletes every record of the procedures in `ids` (the runner's in-memory tree).
  void DeleteProcedures(const std::vector<ProcedureId>& ids);
  // Deletes every commit record (recovery does this).
  void DeleteCommitRecords();
  // The highest-step record of every procedure, ordered by procedure id.
  std::vector<ProcedureRecord> Latest() const;
  size_t record_count() const { return records_.size(); }
  // Ids of every procedure that has a record (stale children included).
  std::vector<ProcedureId> ProcedureIds() const;
  void Fingerprint(sim::Hasher& h) const;

  static std::string Key(ProcedureId root, ProcedureId id, uint32_t step, RecordKind kind);

 private:
  std::map<std::string, ProcedureRecord> records_;
};

}  // namespace repartsim::model
