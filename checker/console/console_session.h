// The SQL console's session: one simulated cluster (the default one, or the cluster, profile,
// rules and faults of a scenario) that runs statements one at a time, as a client connected
// to the first frontend would: each statement is scheduled at the current virtual time and
// the cluster steps until the client has its answer (a DDL waits for its procedure, unless
// WITH (WAIT = false)). Procedures a statement leaves running (WAIT = false, migrate_region)
// go on while later statements run. Every answer is an Answer in GreptimeDB's words.
// Same seed, configuration and statements => the same answers and trace.
#pragma once

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/console/console_answer.h"
#include "checker/scenario/scenario.h"
#include "sim/result.h"
#include "sim/trace.h"

namespace repartsim::console {

struct SessionConfig {
  uint64_t seed = 0;
  // The cluster, profile, rules and faults to use (its table, steps and workload are not
  // used); nullptr: 3 datanodes, 2 frontends, no faults, the greptime profile.
  const scenario::Scenario* scenario = nullptr;
  std::optional<std::string> profile;               // overrides the scenario's (or greptime)
  std::vector<std::pair<std::string, bool>> rules;  // rule overrides, applied last
  bool keep_trace = false;                          // keep every trace line (--trace FILE)
  // Steps one statement may take before the console gives up waiting for its answer (virtual
  // time passes at every heartbeat, so a statement the cluster never answers ends here).
  uint64_t statement_steps_max = 2'000'000;
  std::FILE* trace_out = nullptr;  // also stream text trace lines here
};

// The answer to one statement and whether it was refused before reaching the cluster because
// it does not parse or is not a statement the console runs (`refused`, located at `location`
// with the parser's own message in `detail`).
struct StatementResult {
  Answer answer;
  bool refused = false;
  sim::SourceLocation location;
  std::string detail;
};

class Session {
 public:
  // Errors: an unknown profile or rule name.
  static sim::Result<std::unique_ptr<Session>> Start(const SessionConfig& config);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Runs the statement `text` (one statement, with or without its ';', comments allowed; an
  // empty or comment-only text answers nothing: std::nullopt). `at` is where the text starts
  // in its source (file, line, column), for refusals.
  std::optional<StatementResult> Run(std::string_view text, const sim::SourceLocation& at);

  // seed, steps, prng_draws and trace hash so far.
  sim::RunSummary Summary() const;
  int64_t now_ms() const;
  const std::vector<std::string>& trace_lines() const;
  // The profile the session runs ("greptime", "reference") and its rule overrides as text.
  std::string profile() const;

  class Impl;

 private:
  explicit Session(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace repartsim::console
