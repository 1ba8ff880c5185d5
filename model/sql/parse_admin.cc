// ADMIN statements: only `ADMIN migrate_region(region_id, from_peer, to_peer[, timeout_secs])`,
// GreptimeDB's function that submits a region migration (statement.h AdminMigrateRegion).
#include "model/sql/parser_core.h"

namespace repartsim::model::sql {

namespace {

// A non-negative integer literal, for ids and seconds.
sim::Result<uint64_t> UnsignedArgument(Parser& p, std::string_view what) {
  const Token at = p.Peek();
  if (at.kind != TokenKind::kNumber) return p.Expected(what);
  auto value = p.Literal();
  if (!value.ok()) return value.error();
  const Value& v = value.value();
  if (v.type() == ValueType::kUInt64) return v.as_uint();
  if (v.type() == ValueType::kInt64 && v.as_int() >= 0) return static_cast<uint64_t>(v.as_int());
  return p.ErrorAt(at, "expected " + std::string(what) + ", found: " + at.text);
}

}  // namespace

sim::Result<Statement> Parser::AdminStatement() {
  Statement stmt;
  stmt.location = LocationOf(Peek());
  Next();  // ADMIN
  if (!AcceptKeyword("migrate_region")) return Expected("migrate_region (the one ADMIN function)");
  if (auto s = ExpectSymbol("("); !s.ok()) return s.error();
  AdminMigrateRegion admin;
  admin.region_location = LocationOf(Peek());
  auto region = UnsignedArgument(*this, "a region id");
  if (!region.ok()) return region.error();
  admin.region_id = region.value();
  for (uint64_t* peer : {&admin.from_peer, &admin.to_peer}) {
    if (auto s = ExpectSymbol(","); !s.ok()) return s.error();
    auto id = UnsignedArgument(*this, "a datanode id");
    if (!id.ok()) return id.error();
    *peer = id.value();
  }
  if (AcceptSymbol(",")) {
    auto secs = UnsignedArgument(*this, "a timeout in seconds");
    if (!secs.ok()) return secs.error();
    admin.timeout_secs = secs.value();
  }
  if (auto s = ExpectSymbol(")"); !s.ok()) return s.error();
  stmt.body = admin;
  return stmt;
}

}  // namespace repartsim::model::sql
