// Runs the built repartsim binary (REPARTSIM_BINARY, defined for tests) through /bin/sh and
// captures what it prints (stdout and stderr interleaved) and its exit code. Shared by the
// CLI tests; header-only so each test executable compiles its own copy.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "tests/paths.h"

namespace repartsim::testing {

struct CliOutcome {
  int exit_code = -1;  // -1 when the process did not exit normally
  std::string output;
};

// `args` are appended to the binary's path; `dir`, when not empty, is the working directory.
inline CliOutcome RunRepartsim(const std::string& args, const std::string& dir = "") {
  std::string command;
  if (!dir.empty()) command = "cd " + dir + " && ";
  command += std::string(REPARTSIM_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr) << command;
  CliOutcome outcome;
  if (pipe == nullptr) return outcome;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) outcome.output.append(buffer, n);
  const int status = pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

}  // namespace repartsim::testing
