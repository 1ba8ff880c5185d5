// ALTER TABLE t REPARTITION / SPLIT PARTITION / MERGE PARTITION / PARTITION ON COLUMNS, with
// the real parser's shape rules and texts (alter_parser.rs, docs/protocol.md section 4).
#include "model/partition/simplify.h"
#include "model/sql/parser.h"
#include "model/sql/parser_core.h"
#include "model/sql/sql_limits.h"

namespace repartsim::model::sql {

namespace {

// `( e1, e2, ... )` with a trailing comma allowed and at least one expression.
sim::Result<std::vector<LocatedExpr>> ExprList(Parser& p, std::string_view clause) {
  if (auto s = p.ExpectSymbol("("); !s.ok()) return s.error();
  std::vector<LocatedExpr> out;
  if (p.Peek().IsSymbol(")")) {
    return p.Expected("expression inside " + std::string(clause) + " clause");
  }
  while (!p.Peek().IsSymbol(")")) {
    if (out.size() == kSqlPartitionsMax) {
      return p.ErrorAt(p.Peek(), "too many expressions in " + std::string(clause) +
                                     " clause: more than " + std::to_string(kSqlPartitionsMax));
    }
    auto e = p.PartitionExpression();
    if (!e.ok()) return e.error();
    out.push_back(std::move(e).value());
    if (!p.AcceptSymbol(",")) break;
  }
  if (auto s = p.ExpectSymbol(")"); !s.ok()) return s.error();
  return out;
}

sim::Status DdlOptions(Parser& p, AlterRepartition& alter) {
  if (!p.AcceptKeyword("with")) return sim::Ok{};
  if (auto s = p.ExpectSymbol("("); !s.ok()) return s;
  while (!p.Peek().IsSymbol(")")) {
    Token key = p.Peek();
    auto name = p.Identifier("an option name");
    if (!name.ok()) return name.error();
    if (auto s = p.ExpectSymbol("="); !s.ok()) return s;
    Token value_token = p.Peek();
    auto v = p.Literal();
    if (!v.ok()) return v.error();
    const Value& value = v.value();
    std::string text = value.type() == ValueType::kString ? value.as_string() : value.ToSql();
    if (EqualsIgnoreCase(name.value(), "wait")) {
      if (EqualsIgnoreCase(text, "true")) {
        alter.wait = true;
      } else if (EqualsIgnoreCase(text, "false")) {
        alter.wait = false;
      } else {
        return p.ErrorAt(value_token, "Invalid value for WAIT: " + value.ToSql());
      }
    } else if (EqualsIgnoreCase(name.value(), "timeout")) {
      auto ms = ParseDurationMs(text);
      if (!ms.ok()) return p.ErrorAt(value_token, ms.error().message);
      alter.timeout_ms = ms.value();
    } else {
      return p.ErrorAt(key, "Unknown DDL option: " + name.value());
    }
    if (!p.AcceptSymbol(",")) break;
  }
  return p.ExpectSymbol(")");
}

bool AtStatementEnd(const Parser& p) {
  return p.Peek().kind == TokenKind::kEnd || p.Peek().IsSymbol(";") || p.Peek().IsKeyword("with");
}

}  // namespace

sim::Result<Statement> Parser::AlterStatement() {
  Statement stmt;
  stmt.location = LocationOf(Peek());
  Next();  // ALTER
  if (auto s = ExpectKeyword("TABLE"); !s.ok()) return s.error();
  AlterRepartition alter;
  auto table = TableName();
  if (!table.ok()) return table.error();
  alter.table = table.value();
  const char* clause = "REPARTITION";
  if (AcceptKeyword("repartition")) {
    alter.kind = AlterRepartition::Kind::kRepartition;
  } else if (AcceptKeyword("split")) {
    if (auto s = ExpectKeyword("PARTITION"); !s.ok()) return s.error();
    alter.kind = AlterRepartition::Kind::kSplit;
    clause = "SPLIT PARTITION";
  } else if (AcceptKeyword("merge")) {
    if (auto s = ExpectKeyword("PARTITION"); !s.ok()) return s.error();
    alter.kind = AlterRepartition::Kind::kMerge;
    clause = "MERGE PARTITION";
  } else if (AcceptKeyword("partition")) {
    if (auto s = ExpectKeyword("ON"); !s.ok()) return s.error();
    if (auto s = ExpectKeyword("COLUMNS"); !s.ok()) return s.error();
    alter.kind = AlterRepartition::Kind::kPartitionOn;
    clause = "PARTITION ON COLUMNS";
  } else {
    return Expected("REPARTITION, SPLIT PARTITION, MERGE PARTITION or PARTITION ON COLUMNS");
  }
  if (alter.kind == AlterRepartition::Kind::kPartitionOn) {
    auto cols = IdentifierList("a column name");
    if (!cols.ok()) return cols.error();
    alter.on_columns = cols.value();
    auto into = ExprList(*this, clause);
    if (!into.ok()) return into.error();
    alter.into = std::move(into).value();
  } else {
    Token list_start = Peek(1);
    auto from = ExprList(*this, clause);
    if (!from.ok()) return from.error();
    alter.from = std::move(from).value();
    if (alter.kind == AlterRepartition::Kind::kSplit && alter.from.size() != 1) {
      return ErrorAt(list_start,
                     "Expected single partition expression inside SPLIT PARTITION "
                     "clause, found: " +
                         std::to_string(alter.from.size()) + " expressions");
    }
    if (alter.kind == AlterRepartition::Kind::kMerge) {
      std::vector<PartitionExpr> exprs;
      for (const LocatedExpr& e : alter.from) exprs.push_back(e.expr);
      alter.into.push_back({FoldOr(exprs), alter.from[0].location});
    } else {
      if (Peek().IsKeyword("on")) {
        Next();
        if (auto s = ExpectKeyword("COLUMNS"); !s.ok()) return s.error();
        auto cols = IdentifierList("a column name");
        if (!cols.ok()) return cols.error();
        alter.on_columns = cols.value();
      }
      if (auto s = ExpectKeyword("INTO"); !s.ok()) return s.error();
      auto into = ExprList(*this, clause);
      if (!into.ok()) return into.error();
      alter.into = std::move(into).value();
    }
  }
  if (!AtStatementEnd(*this)) return Expected("end of " + std::string(clause) + " clause");
  if (auto s = DdlOptions(*this, alter); !s.ok()) return s.error();
  stmt.body = std::move(alter);
  return stmt;
}

}  // namespace repartsim::model::sql
