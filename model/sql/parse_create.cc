// CREATE TABLE: columns with GreptimeDB type names, constraints, PARTITION ON COLUMNS, ENGINE
// and WITH options; builds the TableSchema and the typed PartitionRule.
#include <algorithm>

#include "model/sql/expr_typing.h"
#include "model/sql/parser_core.h"
#include "model/sql/sql_limits.h"

namespace repartsim::model::sql {

namespace {

struct TypeAlias {
  std::string_view name;
  ColumnType type;
};

constexpr TypeAlias kTypeAliases[] = {
    {"tinyint", ColumnType::kInt8},
    {"smallint", ColumnType::kInt16},
    {"int", ColumnType::kInt32},
    {"integer", ColumnType::kInt32},
    {"bigint", ColumnType::kInt64},
    {"int8", ColumnType::kInt8},
    {"int16", ColumnType::kInt16},
    {"int32", ColumnType::kInt32},
    {"int64", ColumnType::kInt64},
    {"uint8", ColumnType::kUInt8},
    {"uint16", ColumnType::kUInt16},
    {"uint32", ColumnType::kUInt32},
    {"uint64", ColumnType::kUInt64},
    {"float", ColumnType::kFloat32},
    {"real", ColumnType::kFloat32},
    {"double", ColumnType::kFloat64},
    {"float32", ColumnType::kFloat32},
    {"float64", ColumnType::kFloat64},
    {"string", ColumnType::kString},
    {"varchar", ColumnType::kString},
    {"text", ColumnType::kString},
    {"boolean", ColumnType::kBool},
    {"bool", ColumnType::kBool},
    {"timestamp", ColumnType::kTimestamp},
    {"timestamp_ms", ColumnType::kTimestamp},
    {"timestampmillisecond", ColumnType::kTimestamp},
};

ColumnType Unsigned(ColumnType t) {
  switch (t) {
    case ColumnType::kInt8:
      return ColumnType::kUInt8;
    case ColumnType::kInt16:
      return ColumnType::kUInt16;
    case ColumnType::kInt32:
      return ColumnType::kUInt32;
    default:
      return ColumnType::kUInt64;
  }
}

}  // namespace

sim::Result<ColumnType> Parser::DataType() {
  const Token& t = Peek();
  if (t.kind != TokenKind::kIdent) return Expected("a data type");
  for (const TypeAlias& alias : kTypeAliases) {
    if (!t.IsKeyword(alias.name)) continue;
    Next();
    ColumnType type = alias.type;
    if (Peek().IsSymbol("(") && Peek(1).kind == TokenKind::kNumber && Peek(2).IsSymbol(")")) {
      Next();  // VARCHAR(255), TIMESTAMP(3): the length/precision is not modelled
      Next();
      Next();
    }
    bool sized_int = type == ColumnType::kInt8 || type == ColumnType::kInt16 ||
                     type == ColumnType::kInt32 || type == ColumnType::kInt64;
    if (sized_int && AcceptKeyword("unsigned")) type = Unsigned(type);
    return type;
  }
  return ErrorAt(t, "Unsupported data type: " + t.text);
}

namespace {

// One `key = value` of a WITH list. Keys may be bare (dotted, e.g. compaction.type),
// "double-quoted" or 'single-quoted'; values a literal, a quoted name or a bare word.
struct OptionEntry {
  std::string key;
  std::string value;      // the value's text ('true', '7d', 1024 -> "1024")
  std::string value_sql;  // as written, for messages ('true', 1024)
  Token key_token;
};

sim::Result<std::vector<OptionEntry>> OptionList(Parser& p) {
  if (auto s = p.ExpectSymbol("("); !s.ok()) return s.error();
  std::vector<OptionEntry> out;
  while (!p.Peek().IsSymbol(")")) {
    OptionEntry entry;
    entry.key_token = p.Peek();
    if (entry.key_token.kind == TokenKind::kString) {
      entry.key = p.Next().text;
    } else {
      auto key = p.Identifier("an option name");
      if (!key.ok()) return key.error();
      entry.key = key.value();
      while (entry.key_token.kind == TokenKind::kIdent && p.AcceptSymbol(".")) {
        auto part = p.Identifier("an option name");
        if (!part.ok()) return part.error();
        entry.key += "." + part.value();
      }
    }
    if (auto s = p.ExpectSymbol("="); !s.ok()) return s.error();
    const Token& value = p.Peek();
    if (value.kind == TokenKind::kQuotedIdent ||
        (value.kind == TokenKind::kIdent && !p.AtLiteral())) {
      entry.value = p.Next().text;
      entry.value_sql = entry.value;
    } else {
      auto v = p.Literal();
      if (!v.ok()) return v.error();
      entry.value_sql = v.value().ToSql();
      entry.value =
          v.value().type() == ValueType::kString ? v.value().as_string() : entry.value_sql;
    }
    out.push_back(std::move(entry));
    if (!p.AcceptSymbol(",")) break;
  }
  if (auto s = p.ExpectSymbol(")"); !s.ok()) return s.error();
  return out;
}

// `FULLTEXT [INDEX] [WITH (...)]`, `SKIPPING INDEX [WITH (...)]`, `INVERTED INDEX`: index
// options of a column, accepted and not modelled (they change how a region finds rows, not
// which rows it holds).
sim::Result<bool> ParseColumnIndex(Parser& p) {
  if (p.AcceptKeyword("fulltext")) {
    p.AcceptKeyword("index");
  } else if (p.AcceptKeyword("skipping") || p.AcceptKeyword("inverted")) {
    if (auto s = p.ExpectKeyword("INDEX"); !s.ok()) return s.error();
  } else {
    return false;
  }
  if (p.AcceptKeyword("with")) {
    auto options = OptionList(p);
    if (!options.ok()) return options.error();
  }
  return true;
}

struct ColumnFlags {
  bool primary_key = false;
  bool time_index = false;
};

sim::Status ParseColumnConstraints(Parser& p, Column& col, ColumnFlags& flags) {
  while (true) {
    if (p.AcceptKeyword("null")) {
      col.nullable = true;
    } else if (p.Peek().IsKeyword("not") && p.Peek(1).IsKeyword("null")) {
      p.Next();
      p.Next();
      col.nullable = false;
    } else if (p.AcceptKeyword("primary")) {
      if (auto s = p.ExpectKeyword("KEY"); !s.ok()) return s;
      flags.primary_key = true;
    } else if (p.AcceptKeyword("time")) {
      if (auto s = p.ExpectKeyword("INDEX"); !s.ok()) return s;
      flags.time_index = true;
    } else if (p.AcceptKeyword("default") || p.AcceptKeyword("comment")) {
      auto v = p.Literal();
      if (!v.ok()) return v.error();
    } else {
      auto index = ParseColumnIndex(p);
      if (!index.ok()) return index.error();
      if (!index.value()) return sim::Ok{};
    }
  }
}

}  // namespace

namespace {

// Table-level `PRIMARY KEY (a, b)` / `TIME INDEX (ts)`; returns false if not at one.
sim::Result<bool> ParseTableConstraint(Parser& p, std::vector<std::string>& pk,
                                       std::vector<std::pair<std::string, Token>>& time_index) {
  if (p.Peek().IsKeyword("primary") && p.Peek(1).IsKeyword("key")) {
    p.Next();
    p.Next();
    auto cols = p.IdentifierList("a column name");
    if (!cols.ok()) return cols.error();
    pk.insert(pk.end(), cols.value().begin(), cols.value().end());
    return true;
  }
  if (p.Peek().IsKeyword("time") && p.Peek(1).IsKeyword("index")) {
    Token at = p.Next();
    p.Next();
    auto cols = p.IdentifierList("a column name");
    if (!cols.ok()) return cols.error();
    for (const std::string& c : cols.value()) time_index.push_back({c, at});
    return true;
  }
  return false;
}

// Table options. append_mode is modelled; on_physical_table makes the table a metric-engine
// logical table; the others (ttl, compaction.*, physical_metric_table, ...) are accepted and
// not modelled.
sim::Status ParseOptions(Parser& p, CreateTable& create) {
  auto options = OptionList(p);
  if (!options.ok()) return options.error();
  for (const OptionEntry& o : options.value()) {
    if (EqualsIgnoreCase(o.key, "append_mode")) {
      if (EqualsIgnoreCase(o.value, "true")) {
        create.schema.append_mode = true;
      } else if (EqualsIgnoreCase(o.value, "false")) {
        create.schema.append_mode = false;
      } else {
        return p.ErrorAt(o.key_token, "Invalid value for append_mode: " + o.value_sql);
      }
    } else if (EqualsIgnoreCase(o.key, "on_physical_table")) {
      create.physical_table = o.value;
    }
  }
  return sim::Ok{};
}

}  // namespace

sim::Result<Statement> Parser::CreateTableStatement() {
  Statement stmt;
  stmt.location = LocationOf(Peek());
  CreateTable create;
  Next();  // CREATE
  if (auto s = ExpectKeyword("TABLE"); !s.ok()) return s.error();
  if (Peek().IsKeyword("if")) {
    Next();
    if (auto s = ExpectKeyword("NOT"); !s.ok()) return s.error();
    if (auto s = ExpectKeyword("EXISTS"); !s.ok()) return s.error();
    create.if_not_exists = true;
  }
  TableSchema& schema = create.schema;
  auto name = TableName();
  if (!name.ok()) return name.error();
  schema.name = name.value();
  if (auto s = ExpectSymbol("("); !s.ok()) return s.error();
  std::vector<std::string> pk;
  std::vector<std::pair<std::string, Token>> time_index;
  while (!Peek().IsSymbol(")")) {
    auto constraint = ParseTableConstraint(*this, pk, time_index);
    if (!constraint.ok()) return constraint.error();
    if (!constraint.value()) {
      Token col_token = Peek();
      if (schema.columns.size() == kSqlColumnsMax) {
        return ErrorAt(col_token, "too many columns: more than " + std::to_string(kSqlColumnsMax));
      }
      auto col_name = Identifier("a column name");
      if (!col_name.ok()) return col_name.error();
      if (schema.FindColumn(col_name.value())) {
        return ErrorAt(col_token, "Duplicate column name: " + col_name.value());
      }
      Column col{col_name.value(), ColumnType::kInt64, true};
      auto type = DataType();
      if (!type.ok()) return type.error();
      col.type = type.value();
      ColumnFlags flags;
      if (auto s = ParseColumnConstraints(*this, col, flags); !s.ok()) return s.error();
      if (flags.primary_key) pk.push_back(col.name);
      if (flags.time_index) time_index.push_back({col.name, col_token});
      schema.columns.push_back(std::move(col));
    }
    if (!AcceptSymbol(",")) break;
  }
  if (auto s = ExpectSymbol(")"); !s.ok()) return s.error();
  if (time_index.empty()) return ErrorAt(Peek(), "Missing time index constraint");
  if (time_index.size() > 1) {
    return ErrorAt(time_index[1].second, "Multiple time index constraints");
  }
  std::optional<size_t> ts = schema.FindColumn(time_index[0].first);
  if (!ts)
    return ErrorAt(time_index[0].second, "Cannot find column by name: " + time_index[0].first);
  if (schema.columns[*ts].type != ColumnType::kTimestamp) {
    return ErrorAt(time_index[0].second,
                   "Time index column " + time_index[0].first + " must be of type TIMESTAMP");
  }
  schema.time_index = *ts;
  schema.columns[*ts].nullable = false;
  for (const std::string& c : pk) {
    std::optional<size_t> i = schema.FindColumn(c);
    if (!i) return ErrorAt(Peek(), "Cannot find column by name: " + c);
    schema.primary_key.push_back(*i);
  }
  if (Peek().IsKeyword("partition")) {
    Next();
    if (auto s = ExpectKeyword("ON"); !s.ok()) return s.error();
    if (auto s = ExpectKeyword("COLUMNS"); !s.ok()) return s.error();
    Token cols_token = Peek();
    auto cols = IdentifierList("a column name");
    if (!cols.ok()) return cols.error();
    for (const std::string& c : cols.value()) {
      if (!schema.FindColumn(c)) return ErrorAt(cols_token, "Cannot find column by name: " + c);
    }
    schema.partition_columns = cols.value();
    create.rule.columns = cols.value();
    if (auto s = ExpectSymbol("("); !s.ok()) return s.error();
    while (!Peek().IsSymbol(")")) {
      if (create.rule.exprs.size() == kSqlPartitionsMax) {
        return ErrorAt(Peek(),
                       "too many partitions: more than " + std::to_string(kSqlPartitionsMax));
      }
      auto raw = PartitionExpression();
      if (!raw.ok()) return raw.error();
      auto typed = TypePartitionExpr(raw.value(), schema, schema.partition_columns);
      if (!typed.ok()) return typed.error();
      create.rule.regions.push_back(static_cast<uint32_t>(create.rule.exprs.size()));
      create.rule.exprs.push_back(std::move(typed).value());
      create.expr_locations.push_back(raw.value().location);
      if (!AcceptSymbol(",")) break;
    }
    if (auto s = ExpectSymbol(")"); !s.ok()) return s.error();
  }
  std::string engine = "mito";
  if (AcceptKeyword("engine")) {
    if (auto s = ExpectSymbol("="); !s.ok()) return s.error();
    auto name = Identifier("an engine name");
    if (!name.ok()) return name.error();
    engine = name.value();
  }
  if (AcceptKeyword("with")) {
    if (auto s = ParseOptions(*this, create); !s.ok()) return s.error();
  }
  if (!EqualsIgnoreCase(engine, "metric")) create.physical_table.clear();
  if (create.rule.exprs.empty()) create.rule.regions = {0};
  stmt.body = std::move(create);
  return stmt;
}

}  // namespace repartsim::model::sql
