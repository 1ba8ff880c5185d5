// Internal: the token cursor shared by the statement parsers, with literal, partition
// expression and predicate sub-parsers. Not part of the public API (use parser.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/sql/lexer.h"
#include "model/sql/statement.h"

namespace repartsim::model::sql {

class Parser {
 public:
  Parser(std::vector<Token> tokens, const std::string& file)
      : tokens_(std::move(tokens)), file_(file) {}

  const Token& Peek(size_t ahead = 0) const;
  const Token& Next();
  bool AtEnd() const { return Peek().kind == TokenKind::kEnd; }
  bool AcceptKeyword(std::string_view kw);
  bool AcceptSymbol(std::string_view sym);
  sim::Status ExpectKeyword(std::string_view kw);
  sim::Status ExpectSymbol(std::string_view sym);
  // "Expected <what>, found: <token>" at the current token.
  sim::Error Expected(std::string_view what) const;
  sim::Error ErrorAt(const Token& t, std::string message) const;
  sim::SourceLocation LocationOf(const Token& t) const { return {file_, t.line, t.column}; }

  sim::Result<std::string> Identifier(std::string_view what);
  // A table name, optionally qualified: `t`, `public.t`, `greptime.public.t`. The model has
  // one catalog (greptime) and one schema (public): a name in them is returned bare, any
  // other qualified name whole (so that it names no table of the model).
  sim::Result<std::string> TableName();
  // A data type name (GreptimeDB's spellings, e.g. INT, BIGINT UNSIGNED, DOUBLE, STRING,
  // VARCHAR(255), TIMESTAMP(3)).
  sim::Result<ColumnType> DataType();
  // Literal: number (optionally signed), 'string', TRUE/FALSE, NULL.
  sim::Result<Value> Literal();
  bool AtLiteral() const;
  // Partition expression: DNF of `column op literal` / `literal op column`, no parentheses.
  sim::Result<LocatedExpr> PartitionExpression();
  // WHERE predicate with NOT, IN, BETWEEN, IS NULL and parentheses.
  sim::Result<Predicate> PredicateExpr();
  // The table that qualified columns of later WHERE clauses must name ("": any table).
  void SetWhereTable(std::string table) { where_table_ = std::move(table); }
  // `( ident, ... )`.
  sim::Result<std::vector<std::string>> IdentifierList(std::string_view what);

  sim::Result<Statement> CreateTableStatement();
  sim::Result<Statement> AlterStatement();
  sim::Result<Statement> InsertStatement();
  sim::Result<Statement> SelectStatement();
  sim::Result<Statement> AdminStatement();

 private:
  sim::Result<PartitionExpr> PartitionOr();
  sim::Result<PartitionExpr> PartitionAnd();
  sim::Result<PartitionExpr> PartitionLeaf();
  sim::Result<Predicate> PredicateOr();
  sim::Result<Predicate> PredicateAnd();
  sim::Result<Predicate> PredicateNot();
  sim::Result<Predicate> PredicatePrimary();
  std::optional<CompareOp> PeekCompareOp() const;
  // A column operand of a WHERE leaf: `col`, `t.col` (up to catalog.schema.table.col; the
  // qualifier must name the statement's table, see where_table_) or `CAST(col AS type)`.
  sim::Status ColumnOperand(Predicate& leaf);
  // Limits of sql_limits.h: an error at `t` once one expression nests or chains too much.
  sim::Status EnterNesting(const Token& t);
  sim::Status CountOperator(const Token& t);

  std::vector<Token> tokens_;
  const std::string& file_;
  size_t pos_ = 0;
  size_t nesting_depth_ = 0;   // open parentheses and NOTs of the current expression
  size_t operator_count_ = 0;  // AND/OR operators of the current expression
  std::string where_table_;    // the table qualified WHERE columns must name ("": any)
};

}  // namespace repartsim::model::sql
