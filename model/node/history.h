// History: the client-visible record of a run, which the oracle and invariants check.
// Every statement a client issues gets a record when issued; its outcome is filled in when the
// frontend completes it. Writes end acknowledged, rejected (definitely not applied) or unknown
// (timed out, node crashed in flight, or partial success across regions: maybe applied).
// Queries end with their rows, or an error. Append-only; ordered by issue.
#pragma once

#include <cstdint>
#include <deque>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/meta/ids.h"
#include "model/partition/expr.h"
#include "model/partition/predicate.h"
#include "model/partition/schema.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

// Declared opaquely: a record only carries the path (model/node/write_path.h names them), and
// this header reaches every handler.
enum class WritePath : uint8_t;

enum class WriteStatus : uint8_t { kPending, kAcked, kRejected, kUnknown };
enum class QueryStatus : uint8_t { kPending, kOk, kError };

const char* WriteStatusName(WriteStatus status);

// Text most records leave empty (a write's error): a pointer when empty, where a std::string
// takes 32 bytes in each of a long run's records.
class RareText {
 public:
  RareText() = default;
  RareText(const RareText& other) { *this = other.str(); }
  RareText& operator=(const RareText& other) {
    if (this != &other) *this = other.str();
    return *this;
  }
  RareText(RareText&&) noexcept = default;
  RareText& operator=(RareText&&) noexcept = default;
  RareText& operator=(std::string text) {
    text_ = text.empty() ? nullptr : std::make_unique<std::string>(std::move(text));
    return *this;
  }

  const std::string& str() const;
  bool empty() const { return text_ == nullptr; }
  operator const std::string&() const { return str(); }  // reads as the text itself
  operator std::string_view() const { return str(); }
  friend bool operator==(const RareText& a, std::string_view b) { return a.str() == b; }
  friend std::ostream& operator<<(std::ostream& out, const RareText& t) { return out << t.str(); }

 private:
  std::unique_ptr<std::string> text_;
};

struct WriteRecord {
  uint64_t id = 0;
  NodeId frontend;
  TableId table;
  // The rows written; empty once packed (run::PackWriteRows, checker/run/history_retention.h): read
  // them with History::RowsOf unless the record is known not to be packed.
  std::vector<Row> rows;
  WritePath path{};  // WritePath::kRow (0)
  bool packed = false;
  uint32_t packed_chunk = 0;  // where History keeps the packed rows (no room taken: padding)
  uint64_t start_step = 0;
  sim::SimTime start;
  WriteStatus status = WriteStatus::kPending;
  uint32_t packed_offset = 0;
  uint64_t end_step = 0;
  sim::SimTime end;
  RareText error;
};

struct QueryRecord {
  uint64_t id = 0;
  NodeId frontend;
  TableId table;
  bool count_star = false;
  std::shared_ptr<const Predicate> where;  // null: none (a pointer: most records shed it)
  std::string sql;
  uint64_t start_step = 0;
  sim::SimTime start;
  QueryStatus status = QueryStatus::kPending;
  uint64_t end_step = 0;
  sim::SimTime end;
  // The merged result rows (none for count(*)). The checker releases them, and `where`, `sql`
  // and `regions`, once the query has passed (run::ReleasePassedQuery); row_count keeps
  // their number.
  std::vector<Row> rows;
  uint64_t row_count = 0;
  uint64_t count = 0;             // count(*): the count the frontend returned
  std::vector<RegionId> regions;  // regions scanned
  uint64_t route_version = 0;     // the version of the cached route it was (last) planned with
  std::string error;
};

enum class DdlStatus : uint8_t { kPending, kDone, kFailed, kRejected, kUnknown };

// A root procedure ended on the metasrv (written by the metasrv as it happens, also for a
// procedure recovered after a crash, whose client may never learn the outcome).
struct ProcedureEnd {
  uint64_t procedure = 0;
  uint64_t step = 0;
  sim::SimTime at;
  bool done = false;  // Done; else Failed with `error`
  std::string error;
};

// A DDL statement (repartition), as its client saw it: rejected by the frontend's validation
// or by an unavailable procedure manager, or submitted and answered Done or Failed by the
// metasrv when its procedure ended, or Unknown when the call gave up without an answer (the
// frontend crashed, its connection to the metasrv broke, or no reply came within the DDL's
// timeout). `procedure` is what the metasrv submitted for it; History::procedure_ends says how
// that procedure ended.
struct DdlRecord {
  uint64_t id = 0;
  NodeId frontend;
  std::string sql;
  // The parent procedure of every submission that reached the metasrv, in order (the meta
  // client submits the task again after a call deadline); empty if none did.
  std::vector<uint64_t> procedures;
  uint64_t start_step = 0;
  sim::SimTime start;
  DdlStatus status = DdlStatus::kPending;
  uint64_t end_step = 0;
  sim::SimTime end;
  std::string error;
};

// A region accepted rows its expression does not cover (INV-OWN, checked as it happens): the
// rows outside the expression it was entitled to (the staging expression while it staged
// one, else the committed expression), by the filter path's semantics (the one scans apply).
// Recorded by the cluster when the datanode acknowledges the write; the checker turns each into an
// INV-OWN violation.
struct OwnershipBreach {
  uint64_t step = 0;
  sim::SimTime at;
  NodeId node;
  RegionId region;
  std::optional<PartitionExpr> current;
  std::optional<PartitionExpr> staging;
  std::vector<Row> rows;  // only the rows outside the entitled expression
};

// A region accepted rows of a write (its datanode acknowledged them): reports name it as the
// rows' holder. Recorded by the cluster as it happens, in step order (History::Accept).
struct Acceptance {
  static constexpr uint32_t kNoOwnRows = 0xffffffffu;
  uint64_t step = 0;
  NodeId node;
  // The rows: those of WriteRecord write_id whose bits are set in write_rows (bit i: its
  // rows[i]), so that a run does not keep a second copy of every row it wrote; or, when the
  // accepted rows are not such a set (no record, a record of more than 64 rows, a row the
  // record does not hold as many times), History::own_accepted_rows[own_rows].
  uint32_t own_rows = kNoOwnRows;
  RegionId region;
  uint64_t write_id = 0;  // the WriteRecord whose request carried the rows
  uint64_t write_rows = 0;
};

// The logs that grow with a run's length (writes, queries, acceptances) are deques: appending
// never moves or copies earlier records, and a long run holds no spare capacity.
struct History {
  std::deque<WriteRecord> writes;
  // queries[i] is query retired_queries + i + 1: the checker drops passed queries from the
  // front (run::RetireFrontQuery), keeping their row counts for Hash.
  std::deque<QueryRecord> queries;
  uint64_t retired_queries = 0;
  std::deque<uint64_t> retired_row_counts;
  std::vector<DdlRecord> ddls;
  std::vector<OwnershipBreach> ownership_breaches;
  std::deque<Acceptance> acceptances;              // for reports only: not hashed
  std::deque<std::vector<Row>> own_accepted_rows;  // Acceptance::own_rows
  std::vector<ProcedureEnd> procedure_ends;        // root procedures, in end order
  // Packed write rows (run::PackWriteRows), in chunks of kPackedChunkBytes or one pack's size:
  // appending never moves what is packed, and a long run's packs do not reallocate as one.
  std::vector<std::string> packed_rows;
  static constexpr size_t kPackedChunkBytes = 4096;

  // For the checker and reports (never for model decisions): how root procedure `procedure`
  // ended, nullptr if it has not (yet).
  const ProcedureEnd* EndOf(uint64_t procedure) const;

  WriteRecord& Write(uint64_t id);
  QueryRecord& Query(uint64_t id);
  const QueryRecord& Query(uint64_t id) const;
  DdlRecord& Ddl(uint64_t id);
  // Outcomes only (not rows): enough to tell histories apart in a fingerprint cheaply.
  void Hash(sim::Hasher& h) const;
  // Records that `region` on `node` accepted `rows` of write `write_id` (0: none) at `step`.
  void Accept(uint64_t step, NodeId node, RegionId region, uint64_t write_id,
              const std::vector<Row>& rows);
  // Calls f(const Row&) for each row `a` accepted (in the write record's order when
  // a.write_rows is set).
  template <class F>
  void ForEachAcceptedRow(const Acceptance& a, F f) const {
    for (const Row& row : OwnRows(a)) f(row);
    if (a.write_rows == 0) return;
    WithRowsOf(writes[a.write_id - 1], [&](const std::vector<Row>& rows) {
      for (size_t i = 0; i < rows.size(); ++i) {
        if ((a.write_rows >> i) & 1) f(rows[i]);
      }
    });
  }
  // Returns f(const std::vector<Row>&) of the rows of `w`, one of `writes`: its own, or
  // unpacked for the call when packed.
  template <class F>
  decltype(auto) WithRowsOf(const WriteRecord& w, F f) const {
    if (!w.packed) return f(w.rows);
    return f(RowsOf(w));
  }
  // The rows `a` keeps itself (Acceptance::own_rows), empty when its rows are bits.
  const std::vector<Row>& OwnRows(const Acceptance& a) const;
  // The rows of `w`, one of `writes`: its own, or unpacked.
  std::vector<Row> RowsOf(const WriteRecord& w) const;
};

// The sizes a long run's memory rests on (docs/performance.md): a run keeps one WriteRecord per
// write and one Acceptance per region that accepted rows. A field that grows them should be
// weighed, and the figure here changed with the reason.
static_assert(sizeof(void*) != 8 || sizeof(WriteRecord) == 96, "WriteRecord grew");
static_assert(sizeof(void*) != 8 || sizeof(Acceptance) == 40, "Acceptance grew");

}  // namespace repartsim::model
