// Shrinking a failing run (repartsim shrink) to a small scripted scenario. The run is first
// turned into a scenario with no randomness left: the random workload becomes scripted sql
// steps (the same statements at the same times, bulk ones marked), and the run's non-default
// decisions become faults.decisions. Then delta debugging (ddmin) removes scripted steps, then
// decisions, then single steps again, keeping a candidate iff its run still reports the same
// invariant; last, each remaining multi-row INSERT loses the rows it does not need. Every
// candidate is YAML text parsed by the ordinary loader, so the result is exactly what was
// verified. Setup statements and the table stay as they are. A removed step can shift the
// decision indices after it; such a candidate asks other questions, ends as nondeterministic
// and is rejected like any candidate that loses the invariant. The shrunk file runs its one
// seed: of the source's `expect` it keeps what holds there (shrunk_expectations.h) and says in
// its header comment what it left out and why.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checker/campaign/shrunk_expectations.h"
#include "sim/choice_list.h"
#include "sim/result.h"

namespace repartsim::campaign {

struct ShrinkConfig {
  std::string scenario_path;
  uint64_t seed = 0;
  std::optional<std::string> profile;
  std::vector<std::pair<std::string, bool>> rules;
  const sim::ChoiceList* replay = nullptr;  // --choices: the failing run's decisions
  // Called after every candidate run (count so far); returning false stops shrinking (the
  // smallest scenario so far is kept).
  std::function<bool(uint64_t)> progress;
};

struct ShrinkSize {
  size_t steps = 0;       // scripted steps (setup not counted)
  size_t statements = 0;  // of them client statements (INSERT, SELECT, ALTER)
  size_t faults = 0;      // of them fault actions (crash, restart, message rules, ...)
  size_t decisions = 0;   // pinned non-default decisions
  size_t rows = 0;        // rows in scripted INSERTs
};

struct ShrinkResult {
  std::string invariant;  // the decisive invariant kept
  std::string profile;
  ShrinkSize before;
  ShrinkSize after;
  uint64_t candidates = 0;  // candidate runs
  std::string yaml;         // the shrunk scenario
  // The source's expectations the shrunk scenario leaves out (they cannot hold at its seed).
  std::vector<DroppedExpectation> dropped;
};

// Errors: unreadable scenario, bad overrides, or a run that does not fail (nothing to keep).
sim::Result<ShrinkResult> Shrink(const ShrinkConfig& config);

}  // namespace repartsim::campaign
