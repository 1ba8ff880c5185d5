#include "model/sql/parser.h"

#include "model/sql/parser_core.h"

namespace repartsim::model::sql {

namespace {

sim::Result<Statement> OneStatement(Parser& p) {
  const Token& t = p.Peek();
  if (t.IsKeyword("create")) return p.CreateTableStatement();
  if (t.IsKeyword("alter")) return p.AlterStatement();
  if (t.IsKeyword("insert")) return p.InsertStatement();
  if (t.IsKeyword("select")) return p.SelectStatement();
  if (t.IsKeyword("admin")) return p.AdminStatement();
  return p.Expected("a statement (CREATE TABLE, ALTER TABLE, INSERT, SELECT or ADMIN)");
}

}  // namespace

sim::Result<std::vector<Statement>> ParseStatements(std::string_view text,
                                                    const std::string& file) {
  auto tokens = Tokenize(text, file);
  if (!tokens.ok()) return tokens.error();
  Parser p(std::move(tokens).value(), file);
  std::vector<Statement> out;
  while (true) {
    while (p.AcceptSymbol(";")) {
    }
    if (p.AtEnd()) break;
    uint32_t start = p.Peek().offset;
    auto stmt = OneStatement(p);
    if (!stmt.ok()) return stmt.error();
    uint32_t end = p.Peek().offset;
    Statement s = std::move(stmt).value();
    s.text = std::string(text.substr(start, end - start));
    while (!s.text.empty() && (s.text.back() == ' ' || s.text.back() == '\n')) s.text.pop_back();
    out.push_back(std::move(s));
    if (!p.AtEnd() && !p.Peek().IsSymbol(";")) return p.Expected("end of statement");
  }
  return out;
}

sim::Result<Predicate> ParsePredicate(std::string_view text, const std::string& file) {
  auto tokens = Tokenize(text, file);
  if (!tokens.ok()) return tokens.error();
  Parser p(std::move(tokens).value(), file);
  auto pred = p.PredicateExpr();
  if (!pred.ok()) return pred;
  if (!p.AtEnd()) return p.Expected("end of predicate");
  return pred;
}

sim::Result<std::vector<std::pair<std::string, Value>>> ParseAssignments(std::string_view text,
                                                                         const std::string& file) {
  auto tokens = Tokenize(text, file);
  if (!tokens.ok()) return tokens.error();
  Parser p(std::move(tokens).value(), file);
  std::vector<std::pair<std::string, Value>> out;
  do {
    auto col = p.Identifier("a column name");
    if (!col.ok()) return col.error();
    if (auto s = p.ExpectSymbol("="); !s.ok()) return s.error();
    auto v = p.Literal();
    if (!v.ok()) return v.error();
    out.push_back({col.value(), v.value()});
  } while (p.AcceptSymbol(","));
  if (!p.AtEnd()) return p.Expected("',' or end of row");
  return out;
}

sim::Result<int64_t> ParseDurationMs(std::string_view text) {
  struct Unit {
    std::string_view suffix;
    int64_t ms;
  };
  static constexpr Unit kUnits[] = {{"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}};
  int64_t total = 0;
  size_t i = 0;
  // The refusal lists the units: a bare number ("10") is the usual mistake.
  const auto invalid = [&] {
    return sim::MakeError({}, "invalid duration '" + std::string(text) +
                                  "' (a number with a unit: ms, s, m or h, e.g. 10s or 1m30s)");
  };
  if (text.empty()) return invalid();
  while (i < text.size()) {
    size_t digits = i;
    int64_t n = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      n = n * 10 + (text[i++] - '0');
      if (n > 1000000000000) return invalid();
    }
    const Unit* unit = nullptr;
    for (const Unit& u : kUnits) {
      if (text.substr(i, u.suffix.size()) == u.suffix) {
        unit = &u;
        break;
      }
    }
    if (i == digits || unit == nullptr) return invalid();
    i += unit->suffix.size();
    total += n * unit->ms;
  }
  return total;
}

}  // namespace repartsim::model::sql
