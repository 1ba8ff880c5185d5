// Goal: `repartsim sql` prints a script in sqlness `.result` form with GreptimeDB's answers
// (tests/data/console/*.sql against the golden *.result beside them: written from GreptimeDB's
// documented output, e.g. tests/cases/standalone/common/partition.result, and reviewed), the
// same bytes for the same script and seed, exits 64 at the end of a script with a statement
// that does not parse (after running the rest), and writes --json and --trace.
// Method: the built binary on the scripts (REPARTSIM_UPDATE_GOLDEN=1 rewrites the goldens).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "tests/tools/cli_runner.h"

namespace repartsim::testing {
namespace {
namespace sql_cli_test {

const std::string kData = std::string(REPARTSIM_SOURCE_DIR) + "/tests/data/console/";

// Runs `name`.sql (with `flags`) and compares stdout with `name`.result; returns the exit code.
int ExpectGolden(const std::string& name, const std::string& flags = "") {
  const CliOutcome o = RunRepartsim("sql " + kData + name + ".sql" + flags, "", false);
  const std::string golden = kData + name + ".result";
  if (std::getenv("REPARTSIM_UPDATE_GOLDEN") != nullptr) std::ofstream(golden) << o.output;
  EXPECT_EQ(o.output, ReadText(golden)) << "rewrite with REPARTSIM_UPDATE_GOLDEN=1 and review";
  return o.exit_code;
}

TEST(SqlCliTest, SplitThenMergePrintsWhatGreptimeDbPrints) {
  EXPECT_EQ(ExpectGolden("split_merge"), 0);
}

TEST(SqlCliTest, EveryRepartitionFormAnswersAsGreptimeDb) {
  // PARTITION ON COLUMNS, REPARTITION ... ON COLUMNS WITH (TIMEOUT), SPLIT WITH (WAIT = false)
  // (the procedure id; the SELECT after it overlaps the split and, under the greptime
  // profile, reads two rows twice: READ-ANOMALY, reads are not fenced). Before issue 58 the
  // REPARTITION after PARTITION ON COLUMNS was refused ("does not have partition columns").
  EXPECT_EQ(ExpectGolden("forms"), 0);
}

TEST(SqlCliTest, ErrorsCarryGreptimeDbCodesNamesAndTexts) {
  // The texts of GreptimeDB's repartition_error.result and partition.result cases; the script
  // has statements the console refuses (syntax, SELEC, DELETE), so it exits 64.
  EXPECT_EQ(ExpectGolden("errors"), 64);
}

TEST(SqlCliTest, AdminFunctionsAnswerAsGreptimeDb) {
  // flush_table and compact_table answer 0 under a header naming the call (GreptimeDB's
  // flush_compact_table.result); migrate_region the procedure id, or GreptimeDB's refusals (the
  // leader is not from_peer, same peers, unknown region); an unknown ADMIN function does not
  // parse, so the script exits 64.
  EXPECT_EQ(ExpectGolden("admin"), 64);
}

TEST(SqlCliTest, AScenarioGivesItsClusterAndProfile) {
  // GreptimeDB's distributed repartition sqlness case runs without metasrv GC: every
  // repartition answers exactly its "Error: 1004(InvalidArguments), Invalid arguments:
  // Repartition requires metasrv GC to be enabled" and SHOW CREATE TABLE its rendering.
  EXPECT_EQ(ExpectGolden("gc_disabled", " --scenario " + std::string(REPARTSIM_SOURCE_DIR) +
                                            "/scenarios/split/repartition_refused_without_gc.yaml"),
            0);
  const CliOutcome o = RunRepartsim("sql " + kData + "gc_disabled.sql --json - --scenario " +
                                        std::string(REPARTSIM_SOURCE_DIR) +
                                        "/scenarios/split/repartition_refused_without_gc.yaml",
                                    "", false);
  EXPECT_TRUE(Has(o.output, "\"profile\": \"reference\"")) << o.output;
}

TEST(SqlCliTest, ATerminalGetsAPromptAndAnswersOnly) {
  // `script` gives the console a terminal on stdin: a prompt, the continuation prompt of an
  // unfinished statement, the answers without the statements, and a malformed statement that
  // does not end the session (exit 0 at the end of input).
  if (RunShell("command -v script >/dev/null").exit_code != 0) GTEST_SKIP() << "no script(1)";
  const std::string dir = FreshTestDir("sql");
  std::ofstream(dir + "/in.sql") << "CREATE TABLE t (a INT, ts TIMESTAMP TIME INDEX);\n"
                                    "SELEC 1;\nINSERT INTO t\nVALUES (1, 1);\n"
                                    "SELECT count(*) FROM t;\n";
  const CliOutcome o = RunShell("cd " + dir + " && script -qec '" + std::string(REPARTSIM_BINARY) +
                                " sql' /dev/null < in.sql");
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_TRUE(Has(o.output, "repartsim> ")) << o.output;
  EXPECT_TRUE(Has(o.output, "        -> ")) << o.output;
  EXPECT_TRUE(Has(o.output, "SQL statement is not supported, keyword: SELEC")) << o.output;
  EXPECT_TRUE(Has(o.output, "Affected Rows: 1")) << o.output;
  EXPECT_TRUE(Has(o.output, "| 1        |")) << o.output;
}

TEST(SqlCliTest, TheSameScriptAndSeedPrintTheSameBytes) {
  const std::string script = kData + "split_merge.sql";
  const CliOutcome a = RunRepartsim("sql " + script + " --seed 7 --json -", "", false);
  const CliOutcome b = RunRepartsim("sql --seed 7 --json - < " + script, "", false);
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_TRUE(Has(a.output, "\"trace_hash\": \"0x")) << a.output;
  // From stdin the statements are located in <stdin>; the answers and the trace are the same.
  EXPECT_EQ(a.output.substr(a.output.find("\"summary\"")),
            b.output.substr(b.output.find("\"summary\"")));
}

TEST(SqlCliTest, AMalformedStatementIsAnsweredAndTheScriptExits64AtItsEnd) {
  const std::string dir = FreshTestDir("sql");
  std::ofstream(dir + "/bad.sql") << "CREATE TABLE t (a INT, ts TIMESTAMP TIME INDEX);\n"
                                     "SELECT * FROM;\n"
                                     "INSERT INTO t VALUES (1, 1);\n";
  const CliOutcome o = RunRepartsim("sql bad.sql", dir);
  EXPECT_EQ(o.exit_code, 64) << o.output;
  EXPECT_TRUE(Has(o.output,
                  "SELECT * FROM;\n\nError: 2000(InvalidSyntax), Invalid SQL syntax: "
                  "sql parser error: Expected"))
      << o.output;
  EXPECT_TRUE(Has(o.output, "bad.sql:2:14: error: Expected")) << o.output;
  EXPECT_TRUE(Has(o.output, "INSERT INTO t VALUES (1, 1);\n\nAffected Rows: 1\n")) << o.output;
}

TEST(SqlCliTest, TraceAndJsonAreWritten) {
  const std::string dir = FreshTestDir("sql");
  std::ofstream(dir + "/t.sql") << "CREATE TABLE t (a INT, ts TIMESTAMP TIME INDEX);\n";
  const CliOutcome o = RunRepartsim("sql t.sql --trace t.trace --json t.json", dir);
  EXPECT_EQ(o.exit_code, 0) << o.output;
  EXPECT_TRUE(Has(ReadText(dir + "/t.trace"), "op create_table")) << ReadText(dir + "/t.trace");
  EXPECT_TRUE(Has(ReadText(dir + "/t.json"), "\"affected_rows\": 0"));
}

}  // namespace sql_cli_test
}  // namespace
}  // namespace repartsim::testing
