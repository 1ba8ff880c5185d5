#include "model/sql/parser_core.h"

#include <charconv>
#include <cstdlib>

#include "model/sql/sql_limits.h"

namespace repartsim::model::sql {

const Token& Parser::Peek(size_t ahead) const {
  size_t i = std::min(pos_ + ahead, tokens_.size() - 1);
  return tokens_[i];
}

const Token& Parser::Next() {
  const Token& t = tokens_[pos_];
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return t;
}

bool Parser::AcceptKeyword(std::string_view kw) {
  if (!Peek().IsKeyword(kw)) return false;
  Next();
  return true;
}

bool Parser::AcceptSymbol(std::string_view sym) {
  if (!Peek().IsSymbol(sym)) return false;
  Next();
  return true;
}

sim::Status Parser::ExpectKeyword(std::string_view kw) {
  if (AcceptKeyword(kw)) return sim::Ok{};
  return Expected(kw);
}

sim::Status Parser::ExpectSymbol(std::string_view sym) {
  if (AcceptSymbol(sym)) return sim::Ok{};
  return Expected(sym);
}

sim::Error Parser::Expected(std::string_view what) const {
  return ErrorAt(Peek(), "Expected " + std::string(what) + ", found: " + Peek().Describe());
}

sim::Error Parser::ErrorAt(const Token& t, std::string message) const {
  return sim::MakeError(LocationOf(t), std::move(message));
}

sim::Result<std::string> Parser::Identifier(std::string_view what) {
  const Token& t = Peek();
  if (t.kind != TokenKind::kIdent && t.kind != TokenKind::kQuotedIdent) return Expected(what);
  return Next().text;
}

namespace {

// The dotted parts of a name at the cursor: `a`, `a.b`, ... (at most `max_parts`).
sim::Result<std::vector<std::string>> DottedName(Parser& p, std::string_view what,
                                                 size_t max_parts) {
  std::vector<std::string> parts;
  do {
    auto part = p.Identifier(what);
    if (!part.ok()) return part.error();
    parts.push_back(part.value());
  } while (parts.size() < max_parts && p.AcceptSymbol("."));
  return parts;
}

std::string JoinDotted(const std::vector<std::string>& parts, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out += (i == 0 ? "" : ".") + parts[i];
  return out;
}

}  // namespace

sim::Result<std::string> Parser::TableName() {
  auto parts = DottedName(*this, "a table name", 3);
  if (!parts.ok()) return parts.error();
  const std::vector<std::string>& p = parts.value();
  const bool in_model =
      (p.size() == 1) || (p.size() == 2 && EqualsIgnoreCase(p[0], "public")) ||
      (p.size() == 3 && EqualsIgnoreCase(p[0], "greptime") && EqualsIgnoreCase(p[1], "public"));
  return in_model ? p.back() : JoinDotted(p, p.size());
}

sim::Status Parser::ColumnOperand(Predicate& leaf) {
  if (Peek().IsKeyword("cast") && Peek(1).IsSymbol("(")) {
    Next();
    Next();
    if (auto s = ColumnOperand(leaf); !s.ok()) return s;
    if (leaf.cast) return ErrorAt(Peek(), "nested CAST is not supported");
    if (auto s = ExpectKeyword("AS"); !s.ok()) return s;
    auto type = DataType();
    if (!type.ok()) return type.error();
    leaf.cast = type.value();
    return ExpectSymbol(")");
  }
  const Token& start = Peek();
  auto parts = DottedName(*this, "an expression", 4);
  if (!parts.ok()) return parts.error();
  const std::vector<std::string>& p = parts.value();
  leaf.column = p.back();
  if (p.size() > 1 && !where_table_.empty()) {
    std::vector<std::string> table(p.begin(), p.end() - 1);
    const bool names_table =
        EqualsIgnoreCase(table.back(), where_table_) &&
        (table.size() == 1 || (table.size() == 2 && EqualsIgnoreCase(table[0], "public")) ||
         (table.size() == 3 && EqualsIgnoreCase(table[0], "greptime") &&
          EqualsIgnoreCase(table[1], "public")));
    if (!names_table) {
      return ErrorAt(start,
                     "No field named " + JoinDotted(p, p.size()) + " in table " + where_table_);
    }
  }
  return sim::Ok{};
}

sim::Result<std::vector<std::string>> Parser::IdentifierList(std::string_view what) {
  if (auto s = ExpectSymbol("("); !s.ok()) return s.error();
  std::vector<std::string> out;
  do {
    if (Peek().IsSymbol(")") && !out.empty()) break;  // trailing comma
    auto id = Identifier(what);
    if (!id.ok()) return id.error();
    out.push_back(id.value());
  } while (AcceptSymbol(","));
  if (auto s = ExpectSymbol(")"); !s.ok()) return s.error();
  return out;
}

bool Parser::AtLiteral() const {
  const Token& t = Peek();
  if (t.kind == TokenKind::kNumber || t.kind == TokenKind::kString) return true;
  if ((t.IsSymbol("-") || t.IsSymbol("+")) && Peek(1).kind == TokenKind::kNumber) return true;
  return t.IsKeyword("true") || t.IsKeyword("false") || t.IsKeyword("null");
}

sim::Result<Value> Parser::Literal() {
  const Token& first = Peek();
  if (first.kind == TokenKind::kString) return Value::String(Next().text);
  if (AcceptKeyword("true")) return Value::Bool(true);
  if (AcceptKeyword("false")) return Value::Bool(false);
  if (AcceptKeyword("null")) return Value::Null();
  bool negative = false;
  if (first.IsSymbol("-") || first.IsSymbol("+")) {
    negative = first.IsSymbol("-");
    Next();
  }
  const Token& num = Peek();
  if (num.kind != TokenKind::kNumber) return Expected("a literal");
  Next();
  const std::string& s = num.text;
  if (s.find_first_of(".eE") == std::string::npos) {
    uint64_t u = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), u);
    if (r.ec == std::errc() && r.ptr == s.data() + s.size()) {
      if (!negative && u <= static_cast<uint64_t>(INT64_MAX))
        return Value::Int(static_cast<int64_t>(u));
      if (!negative) return Value::UInt(u);
      if (u <= static_cast<uint64_t>(INT64_MAX) + 1) {
        return Value::Int(static_cast<int64_t>(0 - u));
      }
    }
    return ErrorAt(first, "number out of range: " + std::string(negative ? "-" : "") + s);
  }
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return ErrorAt(num, "invalid number: " + s);
  return Value::Double(negative ? -d : d);
}

std::optional<CompareOp> Parser::PeekCompareOp() const {
  const Token& t = Peek();
  if (t.kind != TokenKind::kSymbol) return std::nullopt;
  if (t.text == "=" || t.text == "==") return CompareOp::kEq;
  if (t.text == "<>" || t.text == "!=") return CompareOp::kNotEq;
  if (t.text == "<") return CompareOp::kLt;
  if (t.text == "<=") return CompareOp::kLtEq;
  if (t.text == ">") return CompareOp::kGt;
  if (t.text == ">=") return CompareOp::kGtEq;
  return std::nullopt;
}

sim::Status Parser::EnterNesting(const Token& t) {
  if (++nesting_depth_ <= kSqlNestingDepthMax) return sim::Ok{};
  return ErrorAt(t, "expression nested too deeply: more than " +
                        std::to_string(kSqlNestingDepthMax) + " levels of parentheses and NOT");
}

sim::Status Parser::CountOperator(const Token& t) {
  if (++operator_count_ <= kSqlOperatorsMax) return sim::Ok{};
  return ErrorAt(t, "expression too long: more than " + std::to_string(kSqlOperatorsMax) +
                        " AND/OR operators");
}

// ---- partition expressions: sqlparser precedence, OR < AND < comparison, left-assoc ----

sim::Result<LocatedExpr> Parser::PartitionExpression() {
  sim::SourceLocation loc = LocationOf(Peek());
  operator_count_ = 0;
  auto e = PartitionOr();
  if (!e.ok()) return e.error();
  return LocatedExpr{std::move(e).value(), loc};
}

sim::Result<PartitionExpr> Parser::PartitionOr() {
  auto lhs = PartitionAnd();
  if (!lhs.ok()) return lhs;
  PartitionExpr out = std::move(lhs).value();
  while (Peek().IsKeyword("or")) {
    if (auto s = CountOperator(Next()); !s.ok()) return s.error();
    auto rhs = PartitionAnd();
    if (!rhs.ok()) return rhs;
    out = PartitionExpr::Or(std::move(out), std::move(rhs).value());
  }
  return out;
}

sim::Result<PartitionExpr> Parser::PartitionAnd() {
  auto lhs = PartitionLeaf();
  if (!lhs.ok()) return lhs;
  PartitionExpr out = std::move(lhs).value();
  while (Peek().IsKeyword("and")) {
    if (auto s = CountOperator(Next()); !s.ok()) return s.error();
    auto rhs = PartitionLeaf();
    if (!rhs.ok()) return rhs;
    out = PartitionExpr::And(std::move(out), std::move(rhs).value());
  }
  return out;
}

sim::Result<PartitionExpr> Parser::PartitionLeaf() {
  const Token& start = Peek();
  if (start.IsSymbol("(")) {
    return ErrorAt(start,
                   "Invalid partition expr: nested (parenthesised) expressions are not "
                   "supported");
  }
  bool column_first = !AtLiteral();
  std::string column;
  Value value;
  if (column_first) {
    auto c = Identifier("an expression");
    if (!c.ok()) return c.error();
    column = c.value();
  } else {
    auto v = Literal();
    if (!v.ok()) return v.error();
    value = v.value();
  }
  std::optional<CompareOp> op = PeekCompareOp();
  if (!op) return Expected("a comparison operator (=, <>, <, <=, >, >=)");
  Next();
  if (column_first) {
    if (!AtLiteral()) {
      return ErrorAt(start,
                     "Invalid partition expr: expected `column op literal`, found a "
                     "comparison of two columns");
    }
    auto v = Literal();
    if (!v.ok()) return v.error();
    return PartitionExpr::Leaf(std::move(column), *op, v.value());
  }
  if (AtLiteral()) {
    return ErrorAt(start,
                   "Invalid partition expr: expected `column op literal`, found a "
                   "comparison of two literals");
  }
  auto c = Identifier("a column name");
  if (!c.ok()) return c.error();
  return PartitionExpr::LeafReversed(std::move(value), *op, c.value());
}

// ---- WHERE predicates ----

sim::Result<Predicate> Parser::PredicateExpr() {
  nesting_depth_ = 0;
  operator_count_ = 0;
  return PredicateOr();
}

sim::Result<Predicate> Parser::PredicateOr() {
  auto lhs = PredicateAnd();
  if (!lhs.ok()) return lhs;
  Predicate out = std::move(lhs).value();
  while (Peek().IsKeyword("or")) {
    if (auto s = CountOperator(Next()); !s.ok()) return s.error();
    auto rhs = PredicateAnd();
    if (!rhs.ok()) return rhs;
    out = Predicate::Or(std::move(out), std::move(rhs).value());
  }
  return out;
}

sim::Result<Predicate> Parser::PredicateAnd() {
  auto lhs = PredicateNot();
  if (!lhs.ok()) return lhs;
  Predicate out = std::move(lhs).value();
  while (Peek().IsKeyword("and")) {
    if (auto s = CountOperator(Next()); !s.ok()) return s.error();
    auto rhs = PredicateNot();
    if (!rhs.ok()) return rhs;
    out = Predicate::And(std::move(out), std::move(rhs).value());
  }
  return out;
}

sim::Result<Predicate> Parser::PredicateNot() {
  if (Peek().IsKeyword("not")) {
    if (auto s = EnterNesting(Next()); !s.ok()) return s.error();
    auto inner = PredicateNot();
    if (!inner.ok()) return inner;
    --nesting_depth_;
    return Predicate::Not(std::move(inner).value());
  }
  return PredicatePrimary();
}

sim::Result<Predicate> Parser::PredicatePrimary() {
  if (Peek().IsSymbol("(")) {
    if (auto s = EnterNesting(Next()); !s.ok()) return s.error();
    auto inner = PredicateOr();
    if (!inner.ok()) return inner;
    if (auto s = ExpectSymbol(")"); !s.ok()) return s.error();
    --nesting_depth_;
    return inner;
  }
  if (AtLiteral()) {
    auto v = Literal();
    if (!v.ok()) return v.error();
    std::optional<CompareOp> op = PeekCompareOp();
    if (!op) return Expected("a comparison operator");
    Next();
    if (AtLiteral()) return Expected("a column name");
    Predicate leaf = Predicate::Compare("", FlipCompareOp(*op), v.value());
    if (auto s = ColumnOperand(leaf); !s.ok()) return s.error();
    return leaf;
  }
  Predicate p;
  if (auto s = ColumnOperand(p); !s.ok()) return s.error();
  bool negated = AcceptKeyword("not");
  if (AcceptKeyword("in")) {
    p.kind = Predicate::Kind::kIn;
    p.negated = negated;
    if (auto s = ExpectSymbol("("); !s.ok()) return s.error();
    do {
      if (p.values.size() == kSqlInListValuesMax) {
        return ErrorAt(Peek(), "IN list too long: more than " +
                                   std::to_string(kSqlInListValuesMax) + " values");
      }
      auto v = Literal();
      if (!v.ok()) return v.error();
      p.values.push_back(v.value());
    } while (AcceptSymbol(","));
    if (auto s = ExpectSymbol(")"); !s.ok()) return s.error();
    return p;
  }
  if (AcceptKeyword("between")) {
    p.kind = Predicate::Kind::kBetween;
    p.negated = negated;
    for (int i = 0; i < 2; ++i) {
      if (i == 1) {
        if (auto s = ExpectKeyword("AND"); !s.ok()) return s.error();
      }
      auto v = Literal();
      if (!v.ok()) return v.error();
      p.values.push_back(v.value());
    }
    return p;
  }
  if (negated) return Expected("IN or BETWEEN after NOT");
  if (AcceptKeyword("is")) {
    p.kind = Predicate::Kind::kIsNull;
    p.negated = AcceptKeyword("not");
    if (auto s = ExpectKeyword("NULL"); !s.ok()) return s.error();
    return p;
  }
  std::optional<CompareOp> op = PeekCompareOp();
  if (!op) return Expected("a comparison operator");
  Next();
  if (AtLiteral()) {
    auto v = Literal();
    if (!v.ok()) return v.error();
    p.kind = Predicate::Kind::kCompare;
    p.op = *op;
    p.values = {v.value()};
    return p;
  }
  Predicate other;
  if (Peek().kind != TokenKind::kIdent && Peek().kind != TokenKind::kQuotedIdent) {
    return Expected("a literal or column name");
  }
  if (auto s = ColumnOperand(other); !s.ok()) return s.error();
  Predicate unknown;  // column op column: evaluated as unknown, never pruned on
  unknown.kind = Predicate::Kind::kOther;
  return unknown;
}

}  // namespace repartsim::model::sql
