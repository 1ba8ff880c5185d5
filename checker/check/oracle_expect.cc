// Expected results of queries and their comparison with actual results.
//
// Visibility of one row version to a query over [start_step, end_step]:
// - rejected writes are never visible; writes issued after end_step are not visible;
// - a version acknowledged before start_step is "committed". Several committed versions of
//   one identity may each be the surviving one when their writes overlapped in time (the
//   datanode orders them by apply sequence, which the client cannot see), so every committed
//   version whose acknowledgement is not older than the latest committed issue step is a
//   candidate; older ones are stale (last write wins);
// - in-flight and unknown writes, and those acknowledged during the query, may be visible.
// An identity is required iff it has a committed candidate and every value it may show
// matches the predicate; it may appear iff some value it may show matches.
#include <algorithm>
#include <optional>

#include "checker/check/oracle.h"

namespace repartsim::check {

namespace {

// True iff the model evaluates all of `p` (no part it leaves to SQLite).
bool Interpreted(const model::Predicate& p) {
  if (p.kind == model::Predicate::Kind::kOther) return false;
  for (const model::Predicate& child : p.children) {
    if (!Interpreted(child)) return false;
  }
  return true;
}

// True iff every column `p` reads is one of `identity` (schema indices) or no column of the
// schema (read as NULL): all versions of one identity then give `p` the same answer.
bool ReadsOnly(const model::Predicate& p, const model::TableSchema& schema,
               const std::vector<size_t>& identity) {
  if (!p.column.empty()) {
    const std::optional<size_t> i = schema.FindColumn(p.column);
    if (i && std::find(identity.begin(), identity.end(), *i) == identity.end()) return false;
  }
  for (const model::Predicate& child : p.children) {
    if (!ReadsOnly(child, schema, identity)) return false;
  }
  return true;
}

// Bounds on one column that every row a WHERE accepts lies within (each bound inclusive, a
// null pointer when absent): from comparisons (not <>), BETWEEN and ANDs of them, with
// literals of the column's storage type. A superset is enough: Expect checks every identity
// in the bounds.
struct ColumnBounds {
  size_t column = 0;
  const model::Value* low = nullptr;
  const model::Value* high = nullptr;
};

std::optional<ColumnBounds> BoundsOf(const model::Predicate& p, const model::TableSchema& schema) {
  using Kind = model::Predicate::Kind;
  auto literal_ok = [&](const model::Value& v, size_t column) {
    return !v.is_null() && v.type() == model::StorageType(schema.columns[column].type);
  };
  if (p.kind == Kind::kAnd) {
    std::optional<ColumnBounds> a = BoundsOf(p.children[0], schema);
    std::optional<ColumnBounds> b = BoundsOf(p.children[1], schema);
    if (!a) return b;
    if (!b || b->column != a->column) return a;
    // Both bound the same column: the tighter of each bound.
    if (a->low == nullptr || (b->low != nullptr && model::TotalOrder(*b->low, *a->low) > 0)) {
      a->low = b->low;
    }
    if (a->high == nullptr || (b->high != nullptr && model::TotalOrder(*b->high, *a->high) < 0)) {
      a->high = b->high;
    }
    return a;
  }
  if (p.column.empty()) return std::nullopt;
  const std::optional<size_t> column = schema.FindColumn(p.column);
  if (!column) return std::nullopt;
  if (p.kind == Kind::kBetween && !p.negated && literal_ok(p.values[0], *column) &&
      literal_ok(p.values[1], *column)) {
    return ColumnBounds{*column, &p.values[0], &p.values[1]};
  }
  if (p.kind != Kind::kCompare || !literal_ok(p.values[0], *column)) return std::nullopt;
  const model::Value* v = &p.values[0];
  switch (p.op) {
    case model::CompareOp::kEq:
      return ColumnBounds{*column, v, v};
    case model::CompareOp::kLt:
    case model::CompareOp::kLtEq:
      return ColumnBounds{*column, nullptr, v};
    case model::CompareOp::kGt:
    case model::CompareOp::kGtEq:
      return ColumnBounds{*column, v, nullptr};
    default:
      return std::nullopt;
  }
}

}  // namespace

void Oracle::IdentitiesInRange(size_t column, const model::Value* low, const model::Value* high,
                               std::vector<uint32_t>& out) {
  auto index = std::find_if(column_indexes_.begin(), column_indexes_.end(),
                            [&](const ColumnIndex& c) { return c.column == column; });
  if (index == column_indexes_.end()) {
    index = column_indexes_.insert(column_indexes_.end(), ColumnIndex{column, 0, {}});
  }
  for (; index->indexed < identities_.size(); ++index->indexed) {
    const model::Row& row = RowOf(identities_[index->indexed].key);
    index->identities[row[column]].push_back(index->indexed);
  }
  out.clear();
  if (low != nullptr && high != nullptr && model::TotalOrder(*low, *high) > 0) return;  // empty
  auto it = low != nullptr ? index->identities.lower_bound(*low) : index->identities.begin();
  auto end = high != nullptr ? index->identities.upper_bound(*high) : index->identities.end();
  for (; it != end; ++it) out.insert(out.end(), it->second.begin(), it->second.end());
  std::sort(out.begin(), out.end());
}

sim::Status Oracle::MarkMatches(const QuerySpec& spec) {
  lazy_where_ = model::BoundPredicate();
  identity_where_ = false;
  if (spec.where_sql.empty()) {
    matched_.assign(versions_.size(), 1);
    return sim::Ok{};
  }
  if (spec.where == nullptr || !Interpreted(*spec.where)) return MarkMatchesBySqlite(spec);
  if (!cross_check_) {
    matched_.assign(versions_.size(), kMatchUnknown);
    lazy_where_ = model::BoundPredicate(*spec.where, schema_);
    identity_where_ = ReadsOnly(*spec.where, schema_, identity_columns_);
    return sim::Ok{};
  }
  // Released versions are not compared: their rows may be gone, and no query sees them.
  matched_.resize(versions_.size());
  for (size_t v = 0; v < versions_.size(); ++v) {
    matched_[v] =
        !versions_[v].released && model::EvaluatePredicate(*spec.where, schema_, RowOf(v)) ? 1 : 0;
  }
  const std::vector<uint8_t> by_model = matched_;
  sim::Status status = MarkMatchesBySqlite(spec);
  if (!status.ok()) return status;
  for (size_t v = 0; v < versions_.size(); ++v) {
    if (versions_[v].released) matched_[v] = 0;
  }
  if (matched_ != by_model) {
    const std::string message =
        "the model's predicate evaluator and SQLite disagree on WHERE " + spec.where_sql;
    REPARTSIM_ASSERT_MSG(false, message.c_str());
  }
  return sim::Ok{};
}

sim::Status Oracle::MarkMatchesBySqlite(const QuerySpec& spec) {
  Flush();
  matched_.assign(versions_.size(), 0);
  Result<SqliteStatement*> stmt = PredicateStatement(spec);
  if (!stmt.ok()) return stmt.error();
  SqliteStatement& select = *stmt.value();
  for (;;) {
    SqliteStatement::StepResult step = select.Step();
    if (step == SqliteStatement::StepResult::kDone) break;
    if (step == SqliteStatement::StepResult::kError) {
      std::string message = "oracle: " + db_->LastError() + " in WHERE " + spec.where_sql;
      select.Reset();
      return sim::MakeError(spec.location, std::move(message));
    }
    int64_t version = select.ColumnInt(0);
    REPARTSIM_ASSERT(version >= 0 && static_cast<size_t>(version) < versions_.size());
    matched_[static_cast<size_t>(version)] = 1;
  }
  select.Reset();
  return sim::Ok{};
}

bool Oracle::Matches(uint32_t version) const {
  uint8_t& m = matched_[version];
  if (m == kMatchUnknown) {
    m = lazy_where_.Evaluate(RowOf(version)) ? 1 : 0;
  }
  return m != 0;
}

std::optional<uint64_t> Oracle::MaxAckedIssueStep(const Identity& identity,
                                                  const QuerySpec& spec) const {
  std::optional<uint64_t> out;
  for (uint32_t version : identity.versions) {
    const WriteRecord& write = writes_[versions_[version].write];
    if (write.state != WriteState::kAcknowledged || write.resolve_step >= spec.start_step) {
      continue;
    }
    if (!out.has_value() || write.issue_step > *out) out = write.issue_step;
  }
  return out;
}

Oracle::Visibility Oracle::VisibilityOf(uint32_t version, std::optional<uint64_t> max_acked_issue,
                                        const QuerySpec& spec) const {
  const Version& v = versions_[version];
  const WriteRecord& write = writes_[v.write];
  if (write.state == WriteState::kRejected) return Visibility::kRejected;
  if (v.overwritten_in_write) return Visibility::kStale;
  if (write.issue_step > spec.end_step) return Visibility::kAfterEnd;
  if (write.state == WriteState::kAcknowledged && write.resolve_step < spec.start_step) {
    if (schema_.append_mode) return Visibility::kRequired;
    REPARTSIM_ASSERT(max_acked_issue.has_value());
    return write.resolve_step >= *max_acked_issue ? Visibility::kRequired : Visibility::kStale;
  }
  return Visibility::kOptional;
}

void Oracle::AddLwwSlot(uint32_t identity_index, const QuerySpec& spec, Expectation& out) const {
  const Identity& identity = identities_[identity_index];
  std::optional<uint64_t> max_issue = MaxAckedIssueStep(identity, spec);
  ExpectedSlot slot;
  slot.identity = identity_index;
  slot.first = static_cast<uint32_t>(out.versions.size());
  bool all_match = true;
  for (uint32_t version : identity.versions) {
    Visibility visibility = VisibilityOf(version, max_issue, spec);
    if (visibility != Visibility::kRequired && visibility != Visibility::kOptional) continue;
    if (Matches(version)) {
      out.versions.push_back(version);
    } else {
      all_match = false;
    }
  }
  slot.size = static_cast<uint32_t>(out.versions.size()) - slot.first;
  if (slot.size == 0) return;
  slot.count_min = max_issue.has_value() && all_match ? 1 : 0;
  slot.count_max = 1;
  out.slots.push_back(slot);
}

void Oracle::AddAppendSlots(uint32_t identity_index, const QuerySpec& spec,
                            Expectation& out) const {
  // One slot per distinct row value of the identity, with the versions that carry it.
  struct Distinct {
    std::vector<uint32_t> versions;
    uint32_t count_min = 0;
    uint32_t count_max = 0;
  };
  const Identity& identity = identities_[identity_index];
  std::vector<Distinct> values;
  for (uint32_t version : identity.versions) {
    Visibility visibility = VisibilityOf(version, std::nullopt, spec);
    if (visibility != Visibility::kRequired && visibility != Visibility::kOptional) continue;
    if (!Matches(version)) continue;
    const model::Row& row = RowOf(version);
    auto same = std::find_if(values.begin(), values.end(),
                             [&](const Distinct& d) { return RowOf(d.versions.front()) == row; });
    if (same == values.end()) same = values.insert(values.end(), Distinct{});
    same->versions.push_back(version);
    same->count_min += visibility == Visibility::kRequired ? 1 : 0;
    same->count_max += 1;
  }
  std::sort(values.begin(), values.end(), [&](const Distinct& a, const Distinct& b) {
    return CompareRows(RowOf(a.versions.front()), RowOf(b.versions.front())) < 0;
  });
  for (const Distinct& d : values) {
    out.slots.push_back(ExpectedSlot{identity_index, static_cast<uint32_t>(out.versions.size()),
                                     static_cast<uint32_t>(d.versions.size()), d.count_min,
                                     d.count_max});
    out.versions.insert(out.versions.end(), d.versions.begin(), d.versions.end());
  }
}

Result<Expectation> Oracle::Expect(const QuerySpec& spec) {
  REPARTSIM_ASSERT(spec.start_step <= spec.end_step);
  REPARTSIM_ASSERT_MSG(spec.start_step >= horizon_, "a query starts before the oracle's horizon");
  sim::Status status = MarkMatches(spec);
  if (!status.ok()) return status.error();
  // Identities in order of first registration; one adds slots only for a version that the
  // query may see and that matches its WHERE.
  Expectation out;
  out.spec = spec;
  auto add = [&](uint32_t identity) {
    if (identity_where_) {
      if (!Matches(identities_[identity].key)) return;
      for (uint32_t version : identities_[identity].versions) matched_[version] = 1;
    }
    Identity& record = identities_[identity];
    if (horizon_ > 0 && record.versions.size() >= record.forget_at) Forget(record);
    if (schema_.append_mode) {
      AddAppendSlots(identity, spec, out);
    } else {
      AddLwwSlot(identity, spec, out);
    }
  };
  // A WHERE on identity columns that bounds one of them: only the identities in the bounds
  // can match (all versions of an identity match alike), visited in the same order.
  std::optional<ColumnBounds> bounds;
  if (identity_where_) bounds = BoundsOf(*spec.where, schema_);
  if (bounds) {
    IdentitiesInRange(bounds->column, bounds->low, bounds->high, candidates_);
    for (uint32_t identity : candidates_) add(identity);
  } else {
    for (uint32_t identity = 0; identity < identities_.size(); ++identity) add(identity);
  }
  for (const ExpectedSlot& slot : out.slots) {
    REPARTSIM_ASSERT(slot.count_min <= slot.count_max);
    out.count.min += slot.count_min;
    out.count.max += slot.count_max;
  }
  return out;
}

Result<CountRange> Oracle::ExpectCount(const QuerySpec& spec) {
  Result<Expectation> expected = Expect(spec);
  if (!expected.ok()) return expected.error();
  return expected.value().count;
}

Result<QueryDiff> Oracle::Check(const QuerySpec& spec, const std::vector<model::Row>& actual) {
  Result<Expectation> expected = Expect(spec);
  if (!expected.ok()) return expected.error();
  return Compare(expected.value(), actual);
}

std::vector<model::Row> Oracle::DistinctRows(std::span<const uint32_t> versions) const {
  std::vector<model::Row> out;
  for (uint32_t version : versions) {
    const model::Row& row = RowOf(version);
    if (std::find(out.begin(), out.end(), row) == out.end()) out.push_back(row);
  }
  return out;
}

}  // namespace repartsim::check
