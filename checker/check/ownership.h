// Ownership cross-check through SQLite: which of a region's exposed rows do not satisfy a
// partition expression, evaluated by SQLite on ToSqlPredicate's rendering (the real system's
// filter-path NULL semantics), independently of the C++ evaluators the model routes with.
// A row "satisfies" the expression iff the predicate is true; false and NULL both fail.
// One private in-memory database per checker, opened on first use; statements are cached per
// predicate text.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/check/sqlite_db.h"
#include "model/partition/expr.h"
#include "model/partition/schema.h"

namespace repartsim::check {

class OwnershipChecker {
 public:
  explicit OwnershipChecker(model::TableSchema schema);
  OwnershipChecker(OwnershipChecker&&) noexcept = default;
  OwnershipChecker& operator=(OwnershipChecker&&) noexcept = default;
  ~OwnershipChecker();

  // Ascending indices of the rows of `rows` that do not satisfy `expr`. REQUIRES: each row
  // has one value per schema column. Errors (an expression naming a column the table lacks)
  // read "ownership check: <sqlite message> in <predicate>".
  Result<std::vector<size_t>> RowsOutside(const model::PartitionExpr& expr,
                                          const std::vector<model::Row>& rows);

  // The same answer from the model's filter-path evaluator (model::MatchesFilterPath), or
  // nullopt when `expr` names a column the table lacks. A screen in front of RowsOutside:
  // CheckRegionOwnership asks SQLite only when the model finds a row outside, unless the
  // cross-check is on, when it asks both and stops (exit 70) if they disagree.
  std::optional<std::vector<size_t>> ModelRowsOutside(const model::PartitionExpr& expr,
                                                      const std::vector<model::Row>& rows) const;
  void set_cross_check(bool on) { cross_check_ = on; }
  bool cross_check() const { return cross_check_; }

  const model::TableSchema& schema() const { return schema_; }

 private:
  void OpenDb();
  Result<SqliteStatement*> Statement(const std::string& predicate);

  model::TableSchema schema_;
  std::unique_ptr<SqliteDb> db_;
  SqliteStatement insert_;
  std::map<std::string, SqliteStatement> selects_;
  bool cross_check_ = false;
};

}  // namespace repartsim::check
