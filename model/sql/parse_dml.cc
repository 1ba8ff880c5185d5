// INSERT INTO t [(cols)] VALUES (...), ... and SELECT * | count(*) | col, ... FROM t [WHERE]
// [ORDER BY].
#include "model/sql/parser_core.h"
#include "model/sql/sql_limits.h"

namespace repartsim::model::sql {

sim::Result<Statement> Parser::InsertStatement() {
  Statement stmt;
  stmt.location = LocationOf(Peek());
  Next();  // INSERT
  if (auto s = ExpectKeyword("INTO"); !s.ok()) return s.error();
  Insert insert;
  auto table = TableName();
  if (!table.ok()) return table.error();
  insert.table = table.value();
  if (Peek().IsSymbol("(")) {
    auto cols = IdentifierList("a column name");
    if (!cols.ok()) return cols.error();
    insert.columns = cols.value();
  }
  if (auto s = ExpectKeyword("VALUES"); !s.ok()) return s.error();
  do {
    if (insert.rows.size() == kSqlInsertRowsMax) {
      return ErrorAt(Peek(),
                     "too many rows in one INSERT: more than " + std::to_string(kSqlInsertRowsMax));
    }
    insert.row_locations.push_back(LocationOf(Peek()));
    if (auto s = ExpectSymbol("("); !s.ok()) return s.error();
    std::vector<Value> row;
    do {
      if (row.size() == kSqlColumnsMax) {
        return ErrorAt(Peek(),
                       "too many values in a row: more than " + std::to_string(kSqlColumnsMax));
      }
      auto v = Literal();
      if (!v.ok()) return v.error();
      row.push_back(v.value());
    } while (AcceptSymbol(","));
    if (auto s = ExpectSymbol(")"); !s.ok()) return s.error();
    if (!insert.columns.empty() && row.size() != insert.columns.size()) {
      return sim::MakeError(insert.row_locations.back(),
                            "Expected " + std::to_string(insert.columns.size()) +
                                " values in a row, found: " + std::to_string(row.size()));
    }
    insert.rows.push_back(std::move(row));
  } while (AcceptSymbol(","));
  stmt.body = std::move(insert);
  return stmt;
}

sim::Result<Statement> Parser::SelectStatement() {
  Statement stmt;
  stmt.location = LocationOf(Peek());
  Next();  // SELECT
  Select select;
  if (AcceptSymbol("*")) {
    select.count_star = false;
  } else if (Peek().IsKeyword("count") && Peek(1).IsSymbol("(")) {
    Next();
    Next();
    if (auto s = ExpectSymbol("*"); !s.ok()) return s.error();
    if (auto s = ExpectSymbol(")"); !s.ok()) return s.error();
    select.count_star = true;
  } else if (Peek().kind == TokenKind::kIdent || Peek().kind == TokenKind::kQuotedIdent) {
    do {
      if (select.columns.size() == kSqlColumnsMax) {
        return ErrorAt(Peek(), "too many columns in a SELECT list: more than " +
                                   std::to_string(kSqlColumnsMax));
      }
      // FROM is an identifier token too: `SELECT a, FROM t` lacks a column.
      if (Peek().IsKeyword("from")) return Expected("a column name");
      auto column = Identifier("a column name");
      if (!column.ok()) return column.error();
      select.columns.push_back(column.value());
    } while (AcceptSymbol(","));
  } else {
    return Expected("*, count(*) or a column list");
  }
  if (auto s = ExpectKeyword("FROM"); !s.ok()) return s.error();
  auto table = TableName();
  if (!table.ok()) return table.error();
  select.table = table.value();
  if (AcceptKeyword("where")) {
    SetWhereTable(select.table);
    auto pred = PredicateExpr();
    SetWhereTable("");
    if (!pred.ok()) return pred.error();
    select.where = std::move(pred).value();
  }
  if (AcceptKeyword("order")) {
    if (auto s = ExpectKeyword("BY"); !s.ok()) return s.error();
    do {
      auto col = Identifier("a column name");
      if (!col.ok()) return col.error();
      OrderByItem item{col.value(), false};
      if (AcceptKeyword("desc")) {
        item.descending = true;
      } else {
        AcceptKeyword("asc");
      }
      select.order_by.push_back(item);
    } while (AcceptSymbol(","));
  }
  stmt.body = std::move(select);
  return stmt;
}

}  // namespace repartsim::model::sql
