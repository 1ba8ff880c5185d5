// Goal: pin what the SQL parser accepts and every error text with its line:column. Method:
// parse small statements; errors are compared through Error::Format() ("f:line:col: error:").
#include "model/sql/parser.h"

#include <gtest/gtest.h>

namespace repartsim::model::sql {
namespace {
namespace parser_test {

std::string Err(const std::string& sql) {
  auto r = ParseStatements(sql, "f");
  return r.ok() ? "ok" : r.error().Format();
}

const CreateTable& Create(const std::vector<Statement>& s) {
  return std::get<CreateTable>(s[0].body);
}

TEST(ParserTest, CreateTableWithTypesAndPartition) {
  auto r = ParseStatements(
      "CREATE TABLE IF NOT EXISTS t (\n  a INT UNSIGNED NOT NULL,\n  b VARCHAR(20) NULL,\n"
      "  c Float64, d BIGINT, e TINYINT UNSIGNED, f BOOLEAN, g Int16 DEFAULT 3,\n"
      "  ts TIMESTAMP(3) TIME INDEX,\n  PRIMARY KEY (a, b),\n)\n"
      "PARTITION ON COLUMNS (a, b) (a < 10, 10 <= a AND b < 'x', a >= 10 AND b >= 'x')\n"
      "ENGINE = mito WITH (append_mode = 'true', ttl = '7d');",
      "f");
  ASSERT_TRUE(r.ok()) << r.error().Format();
  const CreateTable& c = Create(r.value());
  EXPECT_TRUE(c.if_not_exists);
  EXPECT_TRUE(c.schema.append_mode);
  ASSERT_EQ(c.schema.columns.size(), 8u);
  EXPECT_EQ(c.schema.columns[0].type, ColumnType::kUInt32);
  EXPECT_FALSE(c.schema.columns[0].nullable);
  EXPECT_EQ(c.schema.columns[1].type, ColumnType::kString);
  EXPECT_EQ(c.schema.columns[2].type, ColumnType::kFloat64);
  EXPECT_EQ(c.schema.columns[3].type, ColumnType::kInt64);
  EXPECT_EQ(c.schema.columns[4].type, ColumnType::kUInt8);
  EXPECT_EQ(c.schema.columns[5].type, ColumnType::kBool);
  EXPECT_EQ(c.schema.columns[6].type, ColumnType::kInt16);
  EXPECT_EQ(c.schema.time_index, 7u);
  EXPECT_EQ(c.schema.primary_key, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(c.rule.regions, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(c.rule.exprs[1].ToSql(), "a >= 10 AND b < 'x'");  // literal-first flipped
  EXPECT_EQ(c.rule.exprs[0].value(), Value::UInt(10));        // typed to UInt32 storage
}

TEST(ParserTest, UnpartitionedTableHasOneDefaultRegion) {
  auto r = ParseStatements("CREATE TABLE t (ts TIMESTAMP TIME INDEX)", "f");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Create(r.value()).rule.regions, std::vector<uint32_t>{0});
  EXPECT_TRUE(Create(r.value()).rule.exprs.empty());
}

TEST(ParserTest, CreateTableErrors) {
  EXPECT_EQ(Err("CREATE TABLE t (a INT)"), "f:1:23: error: Missing time index constraint");
  EXPECT_EQ(Err("CREATE TABLE t (a JSONB, ts TIMESTAMP TIME INDEX)"),
            "f:1:19: error: Unsupported data type: JSONB");
  EXPECT_EQ(Err("CREATE TABLE t (a INT, a INT, ts TIMESTAMP TIME INDEX)"),
            "f:1:24: error: Duplicate column name: a");
  EXPECT_EQ(Err("CREATE TABLE t (a INT TIME INDEX)"),
            "f:1:17: error: Time index column a must be of type TIMESTAMP");
  EXPECT_EQ(Err("CREATE TABLE t (ts TIMESTAMP TIME INDEX, t2 TIMESTAMP TIME INDEX)"),
            "f:1:42: error: Multiple time index constraints");
  EXPECT_EQ(Err("CREATE TABLE t (ts TIMESTAMP TIME INDEX) PARTITION ON COLUMNS (x) (x < 1)"),
            "f:1:63: error: Cannot find column by name: x");
  EXPECT_EQ(Err("CREATE TABLE t (a INT, b INT, ts TIMESTAMP TIME INDEX)\n"
                "PARTITION ON COLUMNS (a) (b < 1)"),
            "f:2:27: error: Cannot find column by name: b");
  EXPECT_EQ(Err("CREATE TABLE t (a TINYINT, ts TIMESTAMP TIME INDEX)\n"
                "PARTITION ON COLUMNS (a) (a < 1000)"),
            "f:2:27: error: value 1000 out of range for Int8");
  EXPECT_EQ(Err("CREATE TABLE t (a INT, ts TIMESTAMP TIME INDEX) WITH (append_mode = 'maybe')"),
            "f:1:55: error: Invalid value for append_mode: 'maybe'");
}

TEST(ParserTest, PartitionExpressionShapeErrors) {
  std::string head =
      "CREATE TABLE t (a INT, b INT, ts TIMESTAMP TIME INDEX) PARTITION ON COLUMNS (a, b) (";
  EXPECT_EQ(Err(head + "(a < 1))"),
            "f:1:85: error: Invalid partition expr: nested (parenthesised) expressions are not "
            "supported");
  EXPECT_EQ(Err(head + "a < b)"),
            "f:1:85: error: Invalid partition expr: expected `column op literal`, found a "
            "comparison of two columns");
  EXPECT_EQ(Err(head + "1 < 2)"),
            "f:1:85: error: Invalid partition expr: expected `column op literal`, found a "
            "comparison of two literals");
  EXPECT_EQ(Err(head + "a IN (1))"),
            "f:1:87: error: Expected a comparison operator (=, <>, <, <=, >, >=), found: IN");
  EXPECT_EQ(Err(head + "a < 1\n  AND < 2)"), "f:2:7: error: Expected an expression, found: <");
}

TEST(ParserTest, LexerErrors) {
  EXPECT_EQ(Err("SELECT * FROM t WHERE a = 'x"), "f:1:27: error: unterminated string literal");
  EXPECT_EQ(Err("SELECT * FROM \"t"), "f:1:15: error: unterminated quoted identifier");
  EXPECT_EQ(Err("SELECT * FROM t WHERE a # 1"), "f:1:25: error: unexpected character '#'");
  EXPECT_EQ(Err("SELECT * FROM t WHERE a = 99999999999999999999"),
            "f:1:27: error: number out of range: 99999999999999999999");
}

TEST(ParserTest, StatementLevelErrors) {
  EXPECT_EQ(
      Err("DROP TABLE t"),
      "f:1:1: error: Expected a statement (CREATE TABLE, ALTER TABLE, INSERT, SELECT or ADMIN), "
      "found: DROP");
  EXPECT_EQ(Err("SELECT * FROM t extra"), "f:1:17: error: Expected end of statement, found: extra");
  EXPECT_EQ(Err("SELECT 1 FROM t"),
            "f:1:8: error: Expected *, count(*) or a column list, found: 1");
  EXPECT_EQ(Err("INSERT INTO t (a, b) VALUES (1)"),
            "f:1:29: error: Expected 2 values in a row, found: 1");
}

TEST(ParserTest, AlterRepartitionForms) {
  auto r = ParseStatements(
      "ALTER TABLE t REPARTITION (a < 10, a >= 10,) ON COLUMNS (a, b) INTO (a < 5, a >= 5) "
      "WITH (WAIT = false, TIMEOUT = '1m30s')",
      "f");
  ASSERT_TRUE(r.ok()) << r.error().Format();
  const auto& alter = std::get<AlterRepartition>(r.value()[0].body);
  EXPECT_EQ(alter.from.size(), 2u);
  EXPECT_EQ(*alter.on_columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(alter.wait);
  EXPECT_EQ(alter.timeout_ms, 90000);
  auto m = ParseStatements("ALTER TABLE t MERGE PARTITION (a < 1, a >= 1 AND a < 2, a >= 2)", "f");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(std::get<AlterRepartition>(m.value()[0].body).into[0].expr.ToSql(),
            "a < 1 OR a >= 1 AND a < 2 OR a >= 2");
  auto p = ParseStatements("ALTER TABLE t PARTITION ON COLUMNS (a) (a < 1, a >= 1)", "f");
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(std::get<AlterRepartition>(p.value()[0].body).from.empty());
}

TEST(ParserTest, AlterRepartitionErrors) {
  EXPECT_EQ(Err("ALTER TABLE t REPARTITION () INTO (a < 1)"),
            "f:1:28: error: Expected expression inside REPARTITION clause, found: )");
  EXPECT_EQ(Err("ALTER TABLE t REPARTITION (a < 1) INTO (a < 1), (a < 2)"),
            "f:1:47: error: Expected end of REPARTITION clause, found: ,");
  EXPECT_EQ(Err("ALTER TABLE t SPLIT PARTITION (a < 1, a >= 1) INTO (a < 1)"),
            "f:1:32: error: Expected single partition expression inside SPLIT PARTITION clause, "
            "found: 2 expressions");
  EXPECT_EQ(Err("ALTER TABLE t SPLIT PARTITION (a < 1) INTO (a < 0, a >= 0) ON COLUMNS (a)"),
            "f:1:60: error: Expected end of SPLIT PARTITION clause, found: ON");
  EXPECT_EQ(Err("ALTER TABLE t MERGE PARTITION ()"),
            "f:1:32: error: Expected expression inside MERGE PARTITION clause, found: )");
  EXPECT_EQ(Err("ALTER TABLE t PARTITION ON COLUMNS (a) ()"),
            "f:1:41: error: Expected expression inside PARTITION ON COLUMNS clause, found: )");
  EXPECT_EQ(Err("ALTER TABLE t REPARTITION (a < 1) (a < 2)"),
            "f:1:35: error: Expected INTO, found: (");
  EXPECT_EQ(Err("ALTER TABLE t DROP COLUMN a"),
            "f:1:15: error: Expected REPARTITION, SPLIT PARTITION, MERGE PARTITION or PARTITION ON "
            "COLUMNS, found: DROP");
  EXPECT_EQ(Err("ALTER TABLE t MERGE PARTITION (a < 1) WITH (TIMEOUT = 'soon')"),
            "f:1:55: error: invalid duration 'soon' (a number with a unit: ms, s, m or h, e.g. "
            "10s or 1m30s)");
  EXPECT_EQ(Err("ALTER TABLE t MERGE PARTITION (a < 1) WITH (WAIT = 2)"),
            "f:1:52: error: Invalid value for WAIT: 2");
  EXPECT_EQ(Err("ALTER TABLE t MERGE PARTITION (a < 1) WITH (FAST = true)"),
            "f:1:45: error: Unknown DDL option: FAST");
}

TEST(ParserTest, InsertAndSelect) {
  auto r = ParseStatements(
      "INSERT INTO t (a, b) VALUES (1, 'x'), (-2, NULL); "
      "SELECT count(*) FROM t WHERE a IN (1, 2) AND NOT b BETWEEN 'a' AND 'c' OR b IS NOT NULL "
      "ORDER BY a DESC, b",
      "f");
  ASSERT_TRUE(r.ok()) << r.error().Format();
  const auto& ins = std::get<Insert>(r.value()[0].body);
  EXPECT_EQ(ins.rows[1][0], Value::Int(-2));
  EXPECT_TRUE(ins.rows[1][1].is_null());
  const auto& sel = std::get<Select>(r.value()[1].body);
  EXPECT_TRUE(sel.count_star);
  EXPECT_EQ(sel.where->ToSql(), "((a IN (1, 2) AND NOT b BETWEEN 'a' AND 'c') OR b IS NOT NULL)");
  ASSERT_EQ(sel.order_by.size(), 2u);
  EXPECT_TRUE(sel.order_by[0].descending);
  EXPECT_EQ(r.value()[0].text, "INSERT INTO t (a, b) VALUES (1, 'x'), (-2, NULL)");
}

TEST(ParserTest, SelectColumnList) {
  auto r = ParseStatements(
      "SELECT b, \"a\" FROM t; SELECT partition_name FROM information_schema.partitions "
      "WHERE table_name = 't'",
      "f");
  ASSERT_TRUE(r.ok()) << r.error().Format();
  const auto& sel = std::get<Select>(r.value()[0].body);
  EXPECT_FALSE(sel.count_star);
  EXPECT_EQ(sel.columns, (std::vector<std::string>{"b", "a"}));
  const auto& partitions = std::get<Select>(r.value()[1].body);
  EXPECT_EQ(partitions.table, "information_schema.partitions");
  EXPECT_EQ(partitions.where->ToSql(), "table_name = 't'");
  EXPECT_EQ(Err("SELECT a, FROM t"), "f:1:11: error: Expected a column name, found: FROM");
}

TEST(ParserTest, AssignmentsAndPredicates) {
  auto a = ParseAssignments("a=5, b='x', c=NULL", "<--row>");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.value()[1].second, Value::String("x"));
  EXPECT_EQ(ParseAssignments("a=5 b=6", "<--row>").error().Format(),
            "<--row>:1:5: error: Expected ',' or end of row, found: b");
  EXPECT_EQ(ParsePredicate("a >", "<--where>").error().Format(),
            "<--where>:1:4: error: Expected a literal or column name, found: EOF");
  EXPECT_EQ(ParsePredicate("a > 1)", "<--where>").error().Format(),
            "<--where>:1:6: error: Expected end of predicate, found: )");
}

TEST(ParserTest, Durations) {
  EXPECT_EQ(ParseDurationMs("500ms").value(), 500);
  EXPECT_EQ(ParseDurationMs("2h").value(), 7200000);
  // Issue 53: `--time-budget 10` was refused without the units.
  EXPECT_EQ(ParseDurationMs("10").error().message,
            "invalid duration '10' (a number with a unit: ms, s, m or h, e.g. 10s or 1m30s)");
}

// GreptimeDB's own examples write index options on columns and quote option keys and values.
TEST(ParserTest, ColumnIndexOptionsAndQuotedTableOptions) {
  auto r = ParseStatements(
      "CREATE TABLE greptime.public.logs (\n"
      "  host STRING SKIPPING INDEX WITH (granularity = 1024, type = 'BLOOM'),\n"
      "  msg STRING FULLTEXT INDEX WITH (analyzer = 'English', case_sensitive = 'false'),\n"
      "  note STRING FULLTEXT, lvl STRING INVERTED INDEX COMMENT 'level',\n"
      "  ts TIMESTAMP TIME INDEX, PRIMARY KEY (host, lvl))\n"
      "WITH ('append_mode' = 'true', \"ttl\" = \"7d\", compaction.type = twcs)",
      "f");
  ASSERT_TRUE(r.ok()) << r.error().Format();
  const CreateTable& c = Create(r.value());
  EXPECT_EQ(c.schema.name, "logs");  // greptime.public is the model's catalog and schema
  EXPECT_EQ(c.schema.columns.size(), 5u);
  EXPECT_TRUE(c.schema.append_mode);
  EXPECT_TRUE(c.physical_table.empty());
  EXPECT_EQ(Err("CREATE TABLE t (a STRING SKIPPING, ts TIMESTAMP TIME INDEX)"),
            "f:1:34: error: Expected INDEX, found: ,");
}

TEST(ParserTest, MetricEngineLogicalTable) {
  auto r = ParseStatements(
      "CREATE TABLE cpu (host STRING PRIMARY KEY, v DOUBLE, ts TIMESTAMP TIME INDEX) "
      "ENGINE = metric WITH (\"on_physical_table\" = \"phy\")",
      "f");
  ASSERT_TRUE(r.ok()) << r.error().Format();
  EXPECT_EQ(Create(r.value()).physical_table, "phy");
  // The option means nothing to the mito engine.
  auto mito = ParseStatements(
      "CREATE TABLE cpu (ts TIMESTAMP TIME INDEX) WITH (on_physical_table = 'phy')", "f");
  ASSERT_TRUE(mito.ok());
  EXPECT_TRUE(Create(mito.value()).physical_table.empty());
}

TEST(ParserTest, QualifiedColumnsAndCastInWhere) {
  auto r = ParseStatements(
      "SELECT * FROM public.t WHERE t.a > 1 AND greptime.public.t.b = 'x' AND "
      "CAST(a AS BIGINT) IN (1, 2) AND 3 < CAST(t.c AS DOUBLE)",
      "f");
  ASSERT_TRUE(r.ok()) << r.error().Format();
  const Select& select = std::get<Select>(r.value()[0].body);
  EXPECT_EQ(select.table, "t");
  ASSERT_TRUE(select.where.has_value());
  // The casts keep the column's values, so the SQL is the bare columns'.
  EXPECT_EQ(select.where->ToSql(), "(((a > 1 AND b = 'x') AND a IN (1, 2)) AND c > 3)");
  const Predicate& in = select.where->children[0].children[1];
  ASSERT_EQ(in.kind, Predicate::Kind::kIn);
  EXPECT_EQ(in.cast, ColumnType::kInt64);
  EXPECT_EQ(select.where->children[1].cast, ColumnType::kFloat64);
  EXPECT_EQ(Err("SELECT * FROM t WHERE u.a = 1"), "f:1:23: error: No field named u.a in table t");
  EXPECT_EQ(Err("SELECT * FROM t WHERE CAST(a AS JSONB) = 1"),
            "f:1:33: error: Unsupported data type: JSONB");
  EXPECT_EQ(Err("SELECT * FROM t WHERE CAST(a BIGINT) = 1"),
            "f:1:30: error: Expected AS, found: BIGINT");
  // A standalone predicate (prune --where) has no table to check a qualifier against.
  EXPECT_TRUE(ParsePredicate("x.a = 1", "w").ok());
}

TEST(ParserTest, AdminMigrateRegionWithAndWithoutTimeout) {
  auto r = ParseStatements(
      "ADMIN migrate_region(4398046511105, 2, 3);\nadmin MIGRATE_REGION(4398046511104, 1, 2, 30)",
      "f");
  ASSERT_TRUE(r.ok()) << r.error().Format();
  ASSERT_EQ(r.value().size(), 2u);
  const auto& first = std::get<AdminMigrateRegion>(r.value()[0].body);
  EXPECT_EQ(first.region_id, 4398046511105u);
  EXPECT_EQ(first.from_peer, 2u);
  EXPECT_EQ(first.to_peer, 3u);
  EXPECT_FALSE(first.timeout_secs.has_value());
  EXPECT_EQ(first.region_location.column, 22u);
  EXPECT_EQ(r.value()[0].text, "ADMIN migrate_region(4398046511105, 2, 3)");
  const auto& second = std::get<AdminMigrateRegion>(r.value()[1].body);
  EXPECT_EQ(second.region_id, 4398046511104u);
  EXPECT_EQ(second.timeout_secs, std::optional<uint64_t>(30));
  EXPECT_EQ(second.region_location.line, 2u);
}

TEST(ParserTest, AdminFlushAndCompactTable) {
  auto r = ParseStatements(
      "ADMIN FLUSH_TABLE('t'); ADMIN compact_table('public.t', 'strict_window', 'window=3600')",
      "f");
  ASSERT_TRUE(r.ok()) << r.error().Format();
  const auto& flush = std::get<AdminTableFunction>(r.value()[0].body);
  EXPECT_EQ(flush.kind, AdminTableFunction::Kind::kFlushTable);
  EXPECT_EQ(flush.table, "t");
  EXPECT_TRUE(flush.options.empty());
  const auto& compact = std::get<AdminTableFunction>(r.value()[1].body);
  EXPECT_EQ(compact.kind, AdminTableFunction::Kind::kCompactTable);
  EXPECT_EQ(compact.table, "public.t");
  EXPECT_EQ(compact.options, (std::vector<std::string>{"strict_window", "window=3600"}));
  EXPECT_EQ(Err("ADMIN flush_table('t', 'x')"), "f:1:24: error: too many arguments: at most 1");
  EXPECT_EQ(Err("ADMIN flush_table(t)"), "f:1:19: error: Expected a string argument, found: t");
}

TEST(ParserTest, AdminErrorsNameTheArgument) {
  EXPECT_EQ(
      Err("ADMIN gc_table('t')"),
      "f:1:7: error: Expected an ADMIN function (migrate_region, flush_table or compact_table), "
      "found: gc_table");
  EXPECT_EQ(Err("ADMIN migrate_region(-1, 1, 2)"), "f:1:22: error: Expected a region id, found: -");
  EXPECT_EQ(Err("ADMIN migrate_region(1, 'dn1', 2)"),
            "f:1:25: error: Expected a datanode id, found: 'dn1'");
  EXPECT_EQ(Err("ADMIN migrate_region(1, 1)"), "f:1:26: error: Expected ,, found: )");
  EXPECT_EQ(Err("ADMIN migrate_region(1, 1, 2, 3, 4)"), "f:1:32: error: Expected ), found: ,");
}

}  // namespace parser_test
}  // namespace
}  // namespace repartsim::model::sql
