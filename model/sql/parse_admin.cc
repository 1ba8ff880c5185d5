// ADMIN statements: `ADMIN migrate_region(region_id, from_peer, to_peer[, timeout_secs])`,
// GreptimeDB's function that submits a region migration (statement.h AdminMigrateRegion), and
// `ADMIN flush_table('t')`, `ADMIN compact_table('t'[, 'type'[, 'options']])`
// (AdminTableFunction).
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

// The string arguments of flush_table / compact_table after the name: `('t', 'x', ...)`.
sim::Result<AdminTableFunction> TableFunction(Parser& p, AdminTableFunction::Kind kind) {
  AdminTableFunction function;
  function.kind = kind;
  if (auto s = p.ExpectSymbol("("); !s.ok()) return s.error();
  const size_t arguments_max = kind == AdminTableFunction::Kind::kFlushTable ? 1 : 3;
  std::vector<std::string> arguments;
  do {
    const Token at = p.Peek();
    if (at.kind != TokenKind::kString) return p.Expected("a string argument");
    if (arguments.size() == arguments_max) {
      return p.ErrorAt(at, "too many arguments: at most " + std::to_string(arguments_max));
    }
    arguments.push_back(p.Next().text);
  } while (p.AcceptSymbol(","));
  function.table = arguments[0];
  function.options.assign(arguments.begin() + 1, arguments.end());
  if (auto s = p.ExpectSymbol(")"); !s.ok()) return s.error();
  return function;
}

}  // namespace

sim::Result<Statement> Parser::AdminStatement() {
  Statement stmt;
  stmt.location = LocationOf(Peek());
  Next();  // ADMIN
  for (const auto& [name, kind] :
       {std::pair{"flush_table", AdminTableFunction::Kind::kFlushTable},
        std::pair{"compact_table", AdminTableFunction::Kind::kCompactTable}}) {
    if (!AcceptKeyword(name)) continue;
    auto function = TableFunction(*this, kind);
    if (!function.ok()) return function.error();
    stmt.body = std::move(function).value();
    return stmt;
  }
  if (!AcceptKeyword("migrate_region")) {
    return Expected("an ADMIN function (migrate_region, flush_table or compact_table)");
  }
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
