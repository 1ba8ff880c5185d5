#include "checker/check/ownership.h"

#include <utility>

namespace repartsim::check {

namespace {

constexpr size_t kStatementCacheMax = 256;

}  // namespace

OwnershipChecker::OwnershipChecker(model::TableSchema schema) : schema_(std::move(schema)) {}

void OwnershipChecker::OpenDb() {
  Result<std::unique_ptr<SqliteDb>> db = SqliteDb::Open("");
  REPARTSIM_ASSERT_MSG(db.ok(), "cannot open an in-memory SQLite database");
  db_ = std::move(db).value();
  db_->ExecOrDie(CreateTableSql("exposed", "idx INTEGER PRIMARY KEY", schema_));
  std::string insert = "INSERT INTO exposed VALUES (?1";
  for (size_t i = 0; i < schema_.columns.size(); ++i) insert += ", ?" + std::to_string(i + 2);
  insert += ')';
  insert_ = db_->PrepareOrDie(insert);
}

OwnershipChecker::~OwnershipChecker() = default;

namespace {

bool NamesOnlyColumnsOf(const model::PartitionExpr& expr, const model::TableSchema& schema) {
  if (expr.is_leaf()) return schema.FindColumn(expr.column()).has_value();
  return NamesOnlyColumnsOf(expr.lhs(), schema) && NamesOnlyColumnsOf(expr.rhs(), schema);
}

}  // namespace

std::optional<std::vector<size_t>> OwnershipChecker::ModelRowsOutside(
    const model::PartitionExpr& expr, const std::vector<model::Row>& rows) const {
  if (!NamesOnlyColumnsOf(expr, schema_)) return std::nullopt;  // SQLite reports the error
  std::vector<size_t> out;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (!model::MatchesFilterPath(expr, schema_, rows[r])) out.push_back(r);
  }
  return out;
}

Result<SqliteStatement*> OwnershipChecker::Statement(const std::string& predicate) {
  if (db_ == nullptr) OpenDb();
  auto it = selects_.find(predicate);
  if (it != selects_.end()) return &it->second;
  // coalesce: a NULL (unknown) predicate does not satisfy the expression either.
  Result<SqliteStatement> stmt = db_->Prepare("SELECT idx FROM exposed WHERE coalesce((" +
                                              predicate + "), 0) = 0 ORDER BY idx");
  if (!stmt.ok()) {
    return sim::MakeError(sim::SourceLocation{},
                          "ownership check: " + stmt.error().message + " in " + predicate);
  }
  if (selects_.size() >= kStatementCacheMax) selects_.clear();
  it = selects_.emplace(predicate, std::move(stmt).value()).first;
  return &it->second;
}

Result<std::vector<size_t>> OwnershipChecker::RowsOutside(const model::PartitionExpr& expr,
                                                          const std::vector<model::Row>& rows) {
  std::string predicate = model::ToSqlPredicate(expr);
  Result<SqliteStatement*> stmt = Statement(predicate);
  if (!stmt.ok()) return stmt.error();
  db_->ExecOrDie("BEGIN; DELETE FROM exposed;");
  for (size_t r = 0; r < rows.size(); ++r) {
    REPARTSIM_ASSERT(rows[r].size() == schema_.columns.size());
    insert_.BindInt(1, static_cast<int64_t>(r));
    for (size_t i = 0; i < rows[r].size(); ++i) {
      insert_.BindValue(static_cast<int>(i + 2), rows[r][i]);
    }
    REPARTSIM_ASSERT(insert_.Step() == SqliteStatement::StepResult::kDone);
    insert_.Reset();
  }
  db_->ExecOrDie("COMMIT");
  SqliteStatement& select = *stmt.value();
  std::vector<size_t> out;
  for (;;) {
    SqliteStatement::StepResult step = select.Step();
    if (step == SqliteStatement::StepResult::kDone) break;
    if (step == SqliteStatement::StepResult::kError) {
      std::string message = "ownership check: " + db_->LastError() + " in " + predicate;
      select.Reset();
      return sim::MakeError(sim::SourceLocation{}, std::move(message));
    }
    int64_t index = select.ColumnInt(0);
    REPARTSIM_ASSERT(index >= 0 && static_cast<size_t>(index) < rows.size());
    out.push_back(static_cast<size_t>(index));
  }
  select.Reset();
  return out;
}

}  // namespace repartsim::check
