// Write registration, write outcomes and the SQLite mirror of the oracle.
#include "checker/check/oracle.h"

#include <algorithm>
#include <utility>

#include "checker/check/row_text.h"
#include "sim/fingerprint.h"

namespace repartsim::check {

namespace {

constexpr size_t kPredicateCacheMax = 256;

}  // namespace

std::string_view WriteStateName(WriteState state) {
  switch (state) {
    case WriteState::kInFlight:
      return "in-flight";
    case WriteState::kAcknowledged:
      return "acknowledged";
    case WriteState::kRejected:
      return "rejected";
    case WriteState::kUnknown:
      return "unknown";
  }
  REPARTSIM_UNREACHABLE();
}

Oracle::Oracle(model::TableSchema schema, std::string path)
    : schema_(std::move(schema)),
      path_(std::move(path)),
      identity_columns_(IdentityColumns(schema_)) {}

Result<Oracle> Oracle::Open(model::TableSchema schema, std::string path) {
  REPARTSIM_ASSERT(!schema.columns.empty());
  Oracle oracle(std::move(schema), std::move(path));
  if (oracle.path_.empty()) return oracle;  // opened when a predicate first needs SQLite
  sim::Status status = oracle.OpenMirror();
  if (!status.ok()) return status.error();
  return oracle;
}

Oracle::Oracle(const Oracle& other)
    : schema_(other.schema_),
      identity_columns_(other.identity_columns_),
      writes_(other.writes_),
      write_index_(other.write_index_),
      versions_(other.versions_),
      owned_rows_(other.owned_rows_),
      identities_(other.identities_),
      identity_heads_(other.identity_heads_),
      cross_check_(other.cross_check_),
      horizon_(other.horizon_),
      forgotten_count_(other.forgotten_count_),
      cold_writes_(other.cold_writes_) {}

Oracle& Oracle::operator=(const Oracle& other) {
  if (this != &other) *this = Oracle(other);
  return *this;
}

Oracle::~Oracle() = default;

sim::Status Oracle::OpenMirror() {
  REPARTSIM_ASSERT(db_ == nullptr);
  Result<std::unique_ptr<SqliteDb>> db = SqliteDb::Open(path_);
  if (!db.ok()) return db.error();
  db_ = std::move(db).value();
  db_->ExecOrDie("DROP TABLE IF EXISTS versions");
  db_->ExecOrDie(CreateTableSql("versions", "vid INTEGER PRIMARY KEY", schema_));
  // Partition columns are what repartition queries filter on; an index lets SQLite skip
  // the full scan for selective predicates.
  for (size_t i = 0; i < schema_.partition_columns.size(); ++i) {
    const std::string& name = schema_.partition_columns[i];
    if (!schema_.FindColumn(name).has_value()) continue;
    db_->ExecOrDie("CREATE INDEX versions_p" + std::to_string(i) + " ON versions(" +
                   QuoteIdentifier(name) + ")");
  }
  std::string insert = "INSERT INTO versions VALUES (?1";
  for (size_t i = 0; i < schema_.columns.size(); ++i) {
    insert += ", ?" + std::to_string(i + 2);
  }
  insert += ')';
  insert_ = db_->PrepareOrDie(insert);
  predicates_.clear();
  versions_flushed_ = 0;
  return sim::Ok{};
}

uint32_t Oracle::AddWrite(WriteId id, uint64_t issue_step, bool in_place, size_t rows) {
  // Ids mostly come in increasing order: the index is a vector sorted by id.
  auto at = write_index_.end();
  if (!write_index_.empty() && write_index_.back().first >= id) {
    at = std::lower_bound(write_index_.begin(), write_index_.end(), std::make_pair(id, 0u));
    REPARTSIM_ASSERT_MSG(at->first != id, "write id registered twice");
  }
  const uint32_t write = static_cast<uint32_t>(writes_.size());
  writes_.push_back(
      WriteRecord{id, issue_step, 0, WriteState::kInFlight, in_place, static_cast<uint32_t>(rows)});
  write_index_.insert(at, {id, write});
  return write;
}

const uint32_t* Oracle::IndexOf(WriteId id) const {
  auto at = std::lower_bound(write_index_.begin(), write_index_.end(), std::make_pair(id, 0u));
  return at != write_index_.end() && at->first == id ? &at->second : nullptr;
}

void Oracle::RegisterWrite(WriteId id, uint64_t issue_step, std::vector<model::Row> rows) {
  const uint32_t write = AddWrite(id, issue_step, false, rows.size());
  for (model::Row& row : rows) {
    owned_rows_.push_back(std::move(row));
    AddVersion(write, owned_rows_.back(), nullptr);
  }
}

void Oracle::RegisterWriteInPlace(WriteId id, uint64_t issue_step,
                                  std::span<const model::Row> rows) {
  const uint32_t write = AddWrite(id, issue_step, true, rows.size());
  for (const model::Row& row : rows) AddVersion(write, row, &row);
}

// `row` is owned_rows_.back() when `in_place` is null.
void Oracle::AddVersion(uint32_t write, const model::Row& row, const model::Row* in_place) {
  REPARTSIM_ASSERT(row.size() == schema_.columns.size());
  for (size_t i = 0; i < row.size(); ++i) {
    REPARTSIM_ASSERT(row[i].is_null() ||
                     row[i].type() == model::StorageType(schema_.columns[i].type));
  }
  uint64_t hash = IdentityHash(row);
  int32_t found = FindIdentity(row, hash);
  uint32_t identity_index = static_cast<uint32_t>(found);
  if (found < 0) {
    identity_index = static_cast<uint32_t>(identities_.size());
    auto [head, fresh] = identity_heads_.emplace(hash, identity_index);
    Identity& added = identities_.emplace_back();
    added.next_same_hash = fresh ? kNoIdentity : head->second;
    added.key = static_cast<uint32_t>(versions_.size());
    head->second = identity_index;
  }
  Identity& identity = identities_[identity_index];
  uint32_t version = static_cast<uint32_t>(versions_.size());
  // Within one request the later row of an identity wins (per-row sequence numbers).
  if (!schema_.append_mode && !identity.versions.empty() &&
      versions_[identity.versions.back()].write == write) {
    versions_[identity.versions.back()].overwritten_in_write = true;
  }
  const uint32_t owned = in_place != nullptr ? 0 : static_cast<uint32_t>(owned_rows_.size() - 1);
  versions_.push_back(Version{write, identity_index, in_place, owned, false, false});
  identity.versions.push_back(version);
}

Oracle::WriteRecord& Oracle::FindWrite(WriteId id) {
  const uint32_t* index = IndexOf(id);
  REPARTSIM_ASSERT_MSG(index != nullptr, "unknown write id");
  return writes_[*index];
}

const Oracle::WriteRecord& Oracle::FindWrite(WriteId id) const {
  const uint32_t* index = IndexOf(id);
  REPARTSIM_ASSERT_MSG(index != nullptr, "unknown write id");
  return writes_[*index];
}

void Oracle::Acknowledge(WriteId id, uint64_t step) {
  WriteRecord& write = FindWrite(id);
  REPARTSIM_ASSERT(write.state == WriteState::kInFlight || write.state == WriteState::kUnknown);
  REPARTSIM_ASSERT(step >= write.issue_step);
  write.state = WriteState::kAcknowledged;
  write.resolve_step = step;
}

void Oracle::Reject(WriteId id, uint64_t step) {
  WriteRecord& write = FindWrite(id);
  REPARTSIM_ASSERT(write.state == WriteState::kInFlight);
  REPARTSIM_ASSERT(step >= write.issue_step);
  write.state = WriteState::kRejected;
  write.resolve_step = step;
}

void Oracle::MarkUnknown(WriteId id, uint64_t step) {
  WriteRecord& write = FindWrite(id);
  REPARTSIM_ASSERT(write.state == WriteState::kInFlight);
  REPARTSIM_ASSERT(step >= write.issue_step);
  write.state = WriteState::kUnknown;
  write.resolve_step = step;
}

bool Oracle::Knows(WriteId id) const { return IndexOf(id) != nullptr; }

WriteState Oracle::StateOf(WriteId id) const { return FindWrite(id).state; }

const model::Row& Oracle::VersionRow(uint32_t version) const {
  REPARTSIM_ASSERT(version < versions_.size());
  REPARTSIM_ASSERT_MSG(!versions_[version].released, "a released version's row was read");
  return RowOf(version);
}

uint64_t Oracle::IdentityHash(const model::Row& row) const {
  sim::Hasher hasher;
  for (size_t index : identity_columns_) row[index].Hash(hasher);
  return hasher.Finish();
}

uint64_t Oracle::RowHash(const model::Row& row) {
  sim::Hasher hasher;
  for (const model::Value& value : row) value.Hash(hasher);
  return hasher.Finish();
}

void Oracle::set_horizon(uint64_t step) {
  REPARTSIM_ASSERT_MSG(step >= horizon_, "the oracle's horizon moved back");
  horizon_ = step;
}

void Oracle::Forget(Identity& identity) {
  // The latest issue among the versions acknowledged before the horizon: every query from
  // the horizon on counts it (MaxAckedIssueStep), so a version acknowledged before it is stale.
  std::optional<uint64_t> max_issue;
  for (uint32_t version : identity.versions) {
    const WriteRecord& write = writes_[versions_[version].write];
    if (write.state != WriteState::kAcknowledged || write.resolve_step >= horizon_) continue;
    if (!max_issue.has_value() || write.issue_step > *max_issue) max_issue = write.issue_step;
  }
  std::erase_if(identity.versions, [&](uint32_t version) {
    const Version& v = versions_[version];
    const WriteRecord& write = writes_[v.write];
    const bool rejected = write.state == WriteState::kRejected;
    // An in-flight write may still be rejected, which VisibilityOf tells before "stale".
    const bool overwritten = v.overwritten_in_write && write.state != WriteState::kInFlight;
    const bool superseded = !schema_.append_mode && write.state == WriteState::kAcknowledged &&
                            write.resolve_step < horizon_ && write.resolve_step < *max_issue;
    if (!rejected && !overwritten && !superseded) return false;
    // Once per value and kind: a steady workload writes the same values again and again.
    const uint64_t digest = (RowHash(RowOf(version)) & ~uint64_t{1}) | (rejected ? 1 : 0);
    if (std::find(identity.forgotten.begin(), identity.forgotten.end(), digest) ==
        identity.forgotten.end()) {
      identity.forgotten.push_back(digest);
    }
    ++forgotten_count_;
    if (version == identity.key) {
      identity.key_forgotten = true;  // its row still names the identity
    } else {
      Release(version);
    }
    return true;
  });
  if (identity.key_forgotten && !identity.versions.empty()) {
    const uint32_t key = identity.key;
    identity.key = identity.versions.front();
    identity.key_forgotten = false;
    Release(key);
  }
  identity.forget_at = std::max<uint32_t>(2, 2 * static_cast<uint32_t>(identity.versions.size()));
}

void Oracle::Release(uint32_t version) {
  Version& v = versions_[version];
  REPARTSIM_ASSERT(!v.released);
  v.released = true;
  WriteRecord& write = writes_[v.write];
  REPARTSIM_ASSERT(write.readable > 0);
  if (--write.readable == 0 && write.in_place) cold_writes_.push_back(write.id);
}

bool Oracle::SameIdentity(const model::Row& a, const model::Row& b) const {
  for (size_t index : identity_columns_) {
    if (a[index] != b[index]) return false;
  }
  return true;
}

int32_t Oracle::FindIdentity(const model::Row& row, uint64_t hash) const {
  auto head = identity_heads_.find(hash);
  if (head == identity_heads_.end()) return -1;
  for (uint32_t i = head->second; i != kNoIdentity; i = identities_[i].next_same_hash) {
    const Identity& identity = identities_[i];
    if (SameIdentity(RowOf(identity.key), row)) {
      return static_cast<int32_t>(i);
    }
  }
  return -1;
}

int32_t Oracle::FindIdentity(const model::Row& row) const {
  return FindIdentity(row, IdentityHash(row));
}

void Oracle::Flush() {
  if (db_ == nullptr) {
    sim::Status status = OpenMirror();
    REPARTSIM_ASSERT_MSG(status.ok(), "cannot reopen the in-memory oracle mirror");
  }
  if (versions_flushed_ == versions_.size()) return;
  db_->ExecOrDie("BEGIN");
  for (size_t v = versions_flushed_; v < versions_.size(); ++v) {
    if (versions_[v].released) continue;  // never visible again, and its row may be gone
    const model::Row& row = RowOf(v);
    insert_.BindInt(1, static_cast<int64_t>(v));
    for (size_t i = 0; i < row.size(); ++i) insert_.BindValue(static_cast<int>(i + 2), row[i]);
    REPARTSIM_ASSERT(insert_.Step() == SqliteStatement::StepResult::kDone);
    insert_.Reset();
  }
  db_->ExecOrDie("COMMIT");
  versions_flushed_ = versions_.size();
}

Result<SqliteStatement*> Oracle::PredicateStatement(const QuerySpec& spec) {
  auto it = predicates_.find(spec.where_sql);
  if (it != predicates_.end()) return &it->second;
  Result<SqliteStatement> stmt =
      db_->Prepare("SELECT vid FROM versions WHERE (" + spec.where_sql + ")");
  if (!stmt.ok()) {
    return sim::MakeError(spec.location,
                          "oracle: " + stmt.error().message + " in WHERE " + spec.where_sql);
  }
  if (predicates_.size() >= kPredicateCacheMax) predicates_.clear();
  it = predicates_.emplace(spec.where_sql, std::move(stmt).value()).first;
  return &it->second;
}

}  // namespace repartsim::check
