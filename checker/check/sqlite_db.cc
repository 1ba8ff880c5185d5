#include "checker/check/sqlite_db.h"

#include <sqlite3.h>

#include <limits>
#include <utility>

namespace repartsim::check {

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    if (stmt_ != nullptr) sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

SqliteStatement::~SqliteStatement() {
  if (stmt_ != nullptr) sqlite3_finalize(stmt_);
}

void SqliteStatement::BindValue(int index, const model::Value& value) {
  REPARTSIM_ASSERT(stmt_ != nullptr);
  int rc = SQLITE_OK;
  switch (value.type()) {
    case model::ValueType::kNull:
      rc = sqlite3_bind_null(stmt_, index);
      break;
    case model::ValueType::kBool:
      rc = sqlite3_bind_int64(stmt_, index, value.as_bool());
      break;
    case model::ValueType::kInt64:
      rc = sqlite3_bind_int64(stmt_, index, value.as_int());
      break;
    case model::ValueType::kUInt64: {
      uint64_t u = value.as_uint();
      // SQLite integers are signed 64-bit; larger values keep their order as REAL.
      if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        rc = sqlite3_bind_int64(stmt_, index, static_cast<int64_t>(u));
      } else {
        rc = sqlite3_bind_double(stmt_, index, static_cast<double>(u));
      }
      break;
    }
    case model::ValueType::kDouble:
      rc = sqlite3_bind_double(stmt_, index, value.as_double());
      break;
    case model::ValueType::kString: {
      const std::string& s = value.as_string();
      rc = sqlite3_bind_text(stmt_, index, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
      break;
    }
    case model::ValueType::kTimestamp:
      rc = sqlite3_bind_int64(stmt_, index, value.as_timestamp_ms());
      break;
  }
  REPARTSIM_ASSERT(rc == SQLITE_OK);
}

void SqliteStatement::BindInt(int index, int64_t value) {
  REPARTSIM_ASSERT(stmt_ != nullptr);
  REPARTSIM_ASSERT(sqlite3_bind_int64(stmt_, index, value) == SQLITE_OK);
}

SqliteStatement::StepResult SqliteStatement::Step() {
  REPARTSIM_ASSERT(stmt_ != nullptr);
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return StepResult::kRow;
  if (rc == SQLITE_DONE) return StepResult::kDone;
  return StepResult::kError;
}

int64_t SqliteStatement::ColumnInt(int index) const {
  REPARTSIM_ASSERT(stmt_ != nullptr);
  return sqlite3_column_int64(stmt_, index);
}

void SqliteStatement::Reset() {
  REPARTSIM_ASSERT(stmt_ != nullptr);
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

Result<std::unique_ptr<SqliteDb>> SqliteDb::Open(const std::string& path) {
  sqlite3* db = nullptr;
  const char* name = path.empty() ? ":memory:" : path.c_str();
  int rc = sqlite3_open_v2(name, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = "cannot open oracle database '" + path +
                          "': " + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return sim::MakeError(sim::SourceLocation{path, 0, 0}, std::move(message));
  }
  // Without this, a double-quoted name that is not a column silently becomes a string
  // literal, so a predicate on a misspelt column would quietly compare a constant.
  sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, nullptr);
  auto out = std::unique_ptr<SqliteDb>(new SqliteDb(db));
  // The oracle is a scratch mirror: durability buys nothing and costs most of the time.
  out->ExecOrDie("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;");
  return out;
}

SqliteDb::~SqliteDb() {
  // close_v2 defers the close until statements still owned elsewhere are finalized.
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

void SqliteDb::ExecOrDie(std::string_view sql) {
  std::string text(sql);
  char* error = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  REPARTSIM_ASSERT_MSG(rc == SQLITE_OK, error);
  sqlite3_free(error);
}

SqliteStatement SqliteDb::PrepareOrDie(std::string_view sql) {
  Result<SqliteStatement> stmt = Prepare(sql);
  REPARTSIM_ASSERT_MSG(stmt.ok(), stmt.ok() ? "" : stmt.error().message.c_str());
  return std::move(stmt).value();
}

Result<SqliteStatement> SqliteDb::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  const char* tail = nullptr;
  int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt, &tail);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return sim::MakeError(sim::SourceLocation{}, LastError());
  }
  // A second statement smuggled in through a WHERE text must not be silently ignored.
  std::string_view rest(tail, static_cast<size_t>(sql.data() + sql.size() - tail));
  if (stmt == nullptr || rest.find_first_not_of(" \t\r\n;") != std::string_view::npos) {
    sqlite3_finalize(stmt);
    return sim::MakeError(sim::SourceLocation{}, "expected exactly one SQL statement");
  }
  return SqliteStatement(stmt);
}

std::string SqliteDb::LastError() const { return sqlite3_errmsg(db_); }

std::string QuoteIdentifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string_view SqliteColumnType(model::ColumnType type) {
  switch (model::StorageType(type)) {
    case model::ValueType::kDouble:
      return "REAL";
    case model::ValueType::kString:
      return "TEXT";
    default:
      return "INTEGER";
  }
}

std::string CreateTableSql(std::string_view table, std::string_view leading_sql,
                           const model::TableSchema& schema) {
  std::string sql = "CREATE TABLE ";
  sql += table;
  sql += '(';
  sql += leading_sql;
  for (const model::Column& column : schema.columns) {
    sql += ", ";
    sql += QuoteIdentifier(column.name);
    sql += ' ';
    sql += SqliteColumnType(column.type);
  }
  sql += ')';
  return sql;
}

}  // namespace repartsim::check
