// StatementTable: the client statements a frontend has in progress (inserts and queries), the
// requests each one has outstanding (by correlation id), and the bookkeeping that ends them:
// a statement is finished into its History record (model/node/history.h) once nothing of it is
// outstanding or left to route, when its requests time out, or when the frontend crashes.
// Writes and queries number their History ids independently, so statements are keyed by
// (kind, id). Plain value: copy = snapshot; Hash covers every field of every statement and the
// corr index.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/meta/ids.h"
#include "model/node/message.h"
#include "model/node/node_context.h"
#include "model/node/write_path.h"
#include "model/partition/predicate.h"
#include "model/partition/schema.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

enum class StatementKind : uint8_t { kInsert, kQuery };
enum class StatementPhase : uint8_t { kWaitingRoute, kInFlight };

// One request a statement sent.
struct SubRequest {
  NodeId node;
  std::vector<RegionWrite> writes;  // inserts: what was sent (for re-routing)
  RegionId region;                  // queries
};

// The extra copies of one write request a frontend resent (an application retry), and the
// refusals of the copies answered so far.
struct ResendState {
  uint32_t copies_in_flight = 0;           // copies sent but not answered, besides the one tracked
  std::vector<RegionWriteResult> refused;  // results of copies that answered with a refusal
};

struct FrontendStatement {
  uint64_t id = 0;   // History id (of a write or of a query)
  uint64_t key = 0;  // the key in the table
  StatementKind kind = StatementKind::kInsert;
  TableId table;
  WritePath path = WritePath::kRow;
  StatementPhase phase = StatementPhase::kWaitingRoute;
  std::vector<Row> rows;  // inserts: rows still to route
  uint32_t attempts = 0;
  std::map<uint64_t, SubRequest> outstanding;  // corr -> request
  std::map<uint64_t, ResendState> resent;      // corr -> its extra copies (inserts)
  sim::SimTime deadline;
  // Outcome so far.
  uint32_t ok_count = 0;
  uint32_t error_count = 0;
  uint32_t unknown_count = 0;
  std::string error;
  std::optional<Predicate> where;  // queries: the WHERE clause (applied to scanned rows)
  std::vector<Row> result_rows;    // queries
  bool count_star = false;         // queries: count(*) (counted in result_count, no rows)
  uint64_t result_count = 0;       // count(*) queries
  TableSchema schema;              // queries: the schema the query was planned with
  std::vector<RegionId> scanned;
  bool replan = false;
};

class StatementTable {
 public:
  // Adds the statement of History record `history_id` of `kind` on `table`, waiting for a
  // route. REQUIRES: no statement of that kind and id is in progress.
  FrontendStatement& Add(StatementKind kind, uint64_t history_id, TableId table);
  // REQUIRES: `key` is in progress.
  FrontendStatement& At(uint64_t key) { return statements_.at(key); }
  // Keys of the statements on `table` that wait for a route, in key order.
  std::vector<uint64_t> WaitingForRoute(TableId table) const;
  // Records that `statement` sent `request` with correlation id `corr`.
  void Track(FrontendStatement& statement, uint64_t corr, SubRequest request);
  // The statement the reply with `corr` belongs to, forgetting `corr`; nullptr for a duplicate
  // or a reply after a timeout. The request stays in the statement's `outstanding`.
  FrontendStatement* TakeOwner(uint64_t corr);
  // The statement the request `corr` belongs to, or nullptr; keeps `corr`.
  FrontendStatement* FindOwner(uint64_t corr);
  // The frontend sent one more copy of write request `corr`; false iff `corr` is not
  // outstanding (its statement ended).
  bool NoteResend(uint64_t corr);
  // The earliest deadline of a statement with requests outstanding, if any.
  std::optional<sim::SimTime> NextDeadline() const;
  // Every statement with requests outstanding at its deadline (<= now) gives them up: their
  // outcome is unknown and the statement's error "request timed out". Returns their keys.
  std::vector<uint64_t> ExpireRequests(sim::SimTime now);
  // Finishes `statement` into its History record and removes it, iff it is in flight, nothing
  // is outstanding, no rows are left to route and no re-plan is pending.
  void MaybeFinish(FrontendStatement& statement, NodeContext& ctx);
  // The frontend crashed: every statement ends unknown (writes) or in error (queries), with
  // error "frontend crashed", and the table is emptied.
  void CrashAll(NodeContext& ctx);

  void Hash(sim::Hasher& h) const;

 private:
  static uint64_t Key(StatementKind kind, uint64_t history_id) {
    return history_id * 2 + (kind == StatementKind::kQuery ? 1 : 0);
  }
  // Writes the outcome of `statement` into its History record and logs it.
  static void Finish(FrontendStatement& statement, NodeContext& ctx);

  std::map<uint64_t, FrontendStatement> statements_;  // by Key
  std::map<uint64_t, uint64_t> corr_owner_;           // request corr -> statement key
};

}  // namespace repartsim::model
