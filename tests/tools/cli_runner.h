// Runs the built repartsim binary (REPARTSIM_BINARY, defined for tests) through /bin/sh and
// captures what it prints and its exit code, plus the small text helpers the CLI tests share
// (a file's bytes, the lines of an output). The CLI tests keep what only the binary shows
// (flags, exit codes, output files and streams); the logic behind a verb is tested in process
// under tests/checker/campaign. Header-only so each test executable compiles its own copy. No
// JSON library: tests/tools/sweep_reader.h reads a report with the campaign layer's reader,
// which keeps the CLI test objects quick to build.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/paths.h"

namespace repartsim::testing {

struct CliOutcome {
  int exit_code = -1;  // -1 when the process did not exit normally
  std::string output;
};

// Runs `command` with /bin/sh and returns what it wrote to stdout (append " 2>&1" for stderr).
inline CliOutcome RunShell(const std::string& command) {
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

// `args` are appended to the binary's path; `dir`, when not empty, is the working directory.
// Stdout and stderr interleaved, or stdout alone with `stderr_too` false.
inline CliOutcome RunRepartsim(const std::string& args, const std::string& dir = "",
                               bool stderr_too = true) {
  std::string command;
  if (!dir.empty()) command = "cd " + dir + " && ";
  command += std::string(REPARTSIM_BINARY) + " " + args + (stderr_too ? " 2>&1" : " 2>/dev/null");
  return RunShell(command);
}

// An empty scratch directory for the running test: <tmp>/repartsim_<prefix>_<pid>_<test name>.
inline std::string FreshTestDir(const std::string& prefix) {
  const std::string dir = std::filesystem::temp_directory_path().string() + "/repartsim_" + prefix +
                          "_" + std::to_string(::getpid()) + "_" +
                          ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Replaces the first occurrence of `from` in `text` (which must hold it) with `to`.
inline std::string ReplaceFirst(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace repartsim::testing
