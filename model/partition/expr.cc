#include "model/partition/expr.h"

#include <cstdio>

namespace repartsim::model {

std::string_view CompareOpSql(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNotEq:
      return "<>";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLtEq:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGtEq:
      return ">=";
  }
  REPARTSIM_UNREACHABLE();
}

std::string_view CompareOpName(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "Eq";
    case CompareOp::kNotEq:
      return "NotEq";
    case CompareOp::kLt:
      return "Lt";
    case CompareOp::kLtEq:
      return "LtEq";
    case CompareOp::kGt:
      return "Gt";
    case CompareOp::kGtEq:
      return "GtEq";
  }
  REPARTSIM_UNREACHABLE();
}

bool SatisfiesCompare(int c, CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return c == 0;
    case CompareOp::kNotEq:
      return c != 0;
    case CompareOp::kLt:
      return c < 0;
    case CompareOp::kLtEq:
      return c <= 0;
    case CompareOp::kGt:
      return c > 0;
    case CompareOp::kGtEq:
      return c >= 0;
  }
  REPARTSIM_UNREACHABLE();
}

CompareOp FlipCompareOp(CompareOp op) {
  switch (op) {
    case CompareOp::kLt:
      return CompareOp::kGt;
    case CompareOp::kLtEq:
      return CompareOp::kGtEq;
    case CompareOp::kGt:
      return CompareOp::kLt;
    case CompareOp::kGtEq:
      return CompareOp::kLtEq;
    default:
      return op;
  }
}

PartitionExpr PartitionExpr::Leaf(std::string column, CompareOp op, Value value) {
  PartitionExpr e;
  e.kind_ = Kind::kLeaf;
  e.column_ = std::move(column);
  e.op_ = op;
  e.value_ = std::move(value);
  return e;
}

PartitionExpr PartitionExpr::LeafReversed(Value value, CompareOp op, std::string column) {
  return Leaf(std::move(column), FlipCompareOp(op), std::move(value));
}

PartitionExpr PartitionExpr::And(PartitionExpr lhs, PartitionExpr rhs) {
  PartitionExpr e;
  e.kind_ = Kind::kAnd;
  e.children_.push_back(std::move(lhs));
  e.children_.push_back(std::move(rhs));
  return e;
}

PartitionExpr PartitionExpr::Or(PartitionExpr lhs, PartitionExpr rhs) {
  PartitionExpr e;
  e.kind_ = Kind::kOr;
  e.children_.push_back(std::move(lhs));
  e.children_.push_back(std::move(rhs));
  return e;
}

const std::string& PartitionExpr::column() const {
  REPARTSIM_ASSERT(is_leaf());
  return column_;
}
CompareOp PartitionExpr::op() const {
  REPARTSIM_ASSERT(is_leaf());
  return op_;
}
const Value& PartitionExpr::value() const {
  REPARTSIM_ASSERT(is_leaf());
  return value_;
}
const PartitionExpr& PartitionExpr::lhs() const {
  REPARTSIM_ASSERT(!is_leaf());
  REPARTSIM_ASSERT(children_.size() == 2);
  return children_[0];
}
const PartitionExpr& PartitionExpr::rhs() const {
  REPARTSIM_ASSERT(!is_leaf());
  REPARTSIM_ASSERT(children_.size() == 2);
  return children_[1];
}

namespace {

void AppendSql(const PartitionExpr& e, std::string& out) {
  if (e.is_leaf()) {
    out += e.column();
    out += ' ';
    out += CompareOpSql(e.op());
    out += ' ';
    out += e.value().ToSql();
    return;
  }
  bool is_and = e.kind() == PartitionExpr::Kind::kAnd;
  for (int side = 0; side < 2; ++side) {
    const PartitionExpr& child = side == 0 ? e.lhs() : e.rhs();
    if (side == 1) out += is_and ? " AND " : " OR ";
    bool paren = is_and && child.kind() == PartitionExpr::Kind::kOr;
    if (paren) out += '(';
    AppendSql(child, out);
    if (paren) out += ')';
  }
}

void AppendJsonString(std::string_view s, std::string& out) {
  out += '"';
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

void AppendJsonValue(const Value& v, std::string& out) {
  if (v.is_null()) {
    out += "\"Null\"";
    return;
  }
  out += "{\"";
  out += ValueTypeName(v.type());
  out += "\":";
  if (v.type() == ValueType::kString) {
    AppendJsonString(v.as_string(), out);
  } else if (v.type() == ValueType::kDouble) {
    AppendJsonString(FormatDouble(v.as_double()), out);  // quoted: NaN/inf are not JSON
  } else {
    out += v.ToSql();
  }
  out += '}';
}

void AppendCanonical(const PartitionExpr& e, std::string& out) {
  out += "{\"lhs\":";
  if (e.is_leaf()) {
    out += "{\"Column\":";
    AppendJsonString(e.column(), out);
    out += "},\"op\":\"";
    out += CompareOpName(e.op());
    out += "\",\"rhs\":{\"Value\":";
    AppendJsonValue(e.value(), out);
    out += "}}";
    return;
  }
  out += "{\"Expr\":";
  AppendCanonical(e.lhs(), out);
  out += "},\"op\":\"";
  out += e.kind() == PartitionExpr::Kind::kAnd ? "And" : "Or";
  out += "\",\"rhs\":{\"Expr\":";
  AppendCanonical(e.rhs(), out);
  out += "}}";
}

void AppendDebug(const PartitionExpr& e, std::string& out) {
  out += "PartitionExpr { lhs: ";
  if (e.is_leaf()) {
    out += "Column(\"" + e.column() + "\"), op: ";
    out += CompareOpName(e.op());
    out += ", rhs: Value(" + e.value().ToDebug() + ") }";
    return;
  }
  out += "Expr(";
  AppendDebug(e.lhs(), out);
  out += "), op: ";
  out += e.kind() == PartitionExpr::Kind::kAnd ? "And" : "Or";
  out += ", rhs: Expr(";
  AppendDebug(e.rhs(), out);
  out += ") }";
}

}  // namespace

std::string PartitionExpr::ToSql() const {
  std::string out;
  AppendSql(*this, out);
  return out;
}

std::string PartitionExpr::CanonicalText() const {
  std::string out = "{\"Expr\":";
  AppendCanonical(*this, out);
  out += '}';
  return out;
}

std::string PartitionExpr::ToDebug() const {
  std::string out;
  AppendDebug(*this, out);
  return out;
}

bool operator==(const PartitionExpr& a, const PartitionExpr& b) {
  if (a.kind_ != b.kind_) return false;
  if (a.kind_ == PartitionExpr::Kind::kLeaf) {
    return a.op_ == b.op_ && a.column_ == b.column_ && a.value_ == b.value_;
  }
  return a.children_ == b.children_;
}

uint64_t Fnv1a64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

uint64_t PartitionExpr::version() const {
  if (version_ == 0) {
    const uint64_t h = Fnv1a64(CanonicalText());
    version_ = h == 0 ? 1 : h;
  }
  return version_;
}

uint64_t ExprVersion(const PartitionExpr* expr) { return expr == nullptr ? 0 : expr->version(); }

}  // namespace repartsim::model
