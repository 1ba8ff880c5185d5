// Thin RAII layer over the sqlite3 C API for the oracle and the ownership cross-check.
// SqliteDb owns one connection; SqliteStatement owns one prepared statement and is reused
// (Reset) rather than re-prepared. SQL the model generates itself (DDL, inserts) must never
// fail, so its failures are REPARTSIM_ASSERTs; SQL that derives from user input (a query's
// WHERE text, a partition expression) comes back as a Result carrying sqlite3_errmsg.
// Values bind by storage type: bool -> 0/1, uint64 above INT64_MAX -> REAL, timestamp -> ms.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "model/partition/schema.h"
#include "model/partition/value.h"
#include "sim/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace repartsim::check {

template <class T>
using Result = sim::Result<T>;

class SqliteStatement {
 public:
  enum class StepResult { kRow, kDone, kError };

  SqliteStatement() = default;
  explicit SqliteStatement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  bool valid() const { return stmt_ != nullptr; }
  // Parameter indices are 1-based, as in SQLite.
  void BindValue(int index, const model::Value& value);
  void BindInt(int index, int64_t value);
  StepResult Step();
  // REQUIRES: the last Step() returned kRow. Column indices are 0-based.
  int64_t ColumnInt(int index) const;
  void Reset();

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

class SqliteDb {
 public:
  // `path` empty means a private in-memory database.
  static Result<std::unique_ptr<SqliteDb>> Open(const std::string& path);
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;
  ~SqliteDb();

  // Executes model-generated SQL; asserts on failure.
  void ExecOrDie(std::string_view sql);
  // Prepares model-generated SQL; asserts on failure.
  SqliteStatement PrepareOrDie(std::string_view sql);
  // Prepares SQL derived from user input; the error message is sqlite3_errmsg.
  Result<SqliteStatement> Prepare(std::string_view sql);
  std::string LastError() const;

 private:
  explicit SqliteDb(sqlite3* db) : db_(db) {}
  sqlite3* db_ = nullptr;
};

// Double-quoted SQL identifier ("a""b" for a"b).
std::string QuoteIdentifier(std::string_view name);
// SQLite column type for a model column: INTEGER, REAL or TEXT.
std::string_view SqliteColumnType(model::ColumnType type);
// "CREATE TABLE <table>(<leading_sql>, "c1" INTEGER, ...)" for `schema`'s columns.
std::string CreateTableSql(std::string_view table, std::string_view leading_sql,
                           const model::TableSchema& schema);

}  // namespace repartsim::check
