// Goal: the repartsim binary's global behaviour: --version, --help, unknown flags and verbs,
// and verbs that are not built yet. Method: run the built binary (REPARTSIM_BINARY) through
// popen and assert the exit code and the exact output lines.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace {

struct Outcome {
  int exit_code;
  std::string output;  // stdout and stderr, interleaved
};

Outcome RunRepartsim(const std::string& args) {
  std::string command = std::string(REPARTSIM_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  size_t read_count;
  while ((read_count = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, read_count);
  int status = pclose(pipe);
  return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

TEST(CliTest, VersionPrintsNameAndVersion) {
  Outcome outcome = RunRepartsim("--version");
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(outcome.output, std::string("repartsim ") + REPARTSIM_VERSION + "\n");
}

TEST(CliTest, HelpListsEveryVerb) {
  Outcome outcome = RunRepartsim("--help");
  EXPECT_EQ(outcome.exit_code, 0);
  for (const char* verb : {"run", "replay", "sweep", "explore", "shrink", "check-rule", "plan",
                           "route", "prune"}) {
    EXPECT_NE(outcome.output.find(std::string("  ") + verb), std::string::npos) << verb;
  }
}

TEST(CliTest, UnknownFlagExits64WithLocatedError) {
  Outcome outcome = RunRepartsim("--frobnicate");
  EXPECT_EQ(outcome.exit_code, 64);
  EXPECT_EQ(outcome.output.rfind("<command line>:1:1: error: ", 0), 0u) << outcome.output;
  EXPECT_NE(outcome.output.find("--frobnicate"), std::string::npos);
}

TEST(CliTest, UnknownFlagAfterVerbIsLocatedAtItsColumn) {
  Outcome outcome = RunRepartsim("check-rule --bogus-flag x");
  EXPECT_EQ(outcome.exit_code, 64);
  EXPECT_EQ(outcome.output.rfind("<command line>:1:12: error: ", 0), 0u) << outcome.output;
}

TEST(CliTest, MissingVerbExits64) {
  Outcome outcome = RunRepartsim("");
  EXPECT_EQ(outcome.exit_code, 64);
  EXPECT_NE(outcome.output.find("error: "), std::string::npos);
}

}  // namespace
