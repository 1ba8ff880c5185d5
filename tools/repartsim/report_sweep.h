// Sweep results: one compact record per run, aggregated per scenario (expectation met or
// not) and per failure group (scenario, invariant, signature), keeping the fastest failing
// seed (fewest steps, then lowest seed) of each group, as TigerBeetle's CFO does. A failure
// signature is the violation message with every digit run replaced by '#', so the same
// defect on different rows, steps or regions lands in one group.
// Reports are JSON (mergeable: `repartsim merge` concatenates the runs of shard reports and
// re-aggregates) and JUnit XML (one testcase per scenario).
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/scenario/runner.h"
#include "sim/result.h"

namespace repartsim::tools {

struct SweepFailure {
  std::string invariant;
  std::string signature;
  std::string message;
};

struct SweepRun {
  std::string path;  // scenario file
  uint64_t seed = 0;
  std::string outcome;  // pass, safety, liveness, nondeterminism, skipped
  uint64_t steps = 0;
  std::string trace_hash;
  std::vector<std::string> invariants;
  std::vector<SweepFailure> failures;  // one per distinct (invariant, signature)
  int64_t wall_ms = 0;
};

struct SweepScenario {
  std::string path;
  std::string name;
  std::string profile;
  std::string expect;  // "pass" or "violation: INV-X"
};

struct SweepGroup {
  std::string path;
  std::string name;
  std::string invariant;
  std::string signature;
  std::string message;
  uint64_t count = 0;
  uint64_t fastest_seed = 0;
  uint64_t fastest_steps = 0;
  bool expected = false;  // the scenario expects this invariant
};

struct ScenarioTally {
  uint64_t runs = 0, pass = 0, safety = 0, liveness = 0, nondeterminism = 0, skipped = 0;
  bool met = true;
  std::string verdict;  // "ok", "unexpected safety", "expected INV-X not found", ...
};

struct SweepReport {
  std::string seeds;  // "A..B" or "per-scenario"
  std::string shard;  // "I/N"
  bool raw = false;   // ignore expectations: any violation fails
  std::vector<SweepScenario> scenarios;
  std::vector<SweepRun> runs;
  std::vector<std::string> determinism_mismatches;
  uint64_t determinism_checked = 0;

  // Derived (Aggregate()).
  std::map<std::string, ScenarioTally> tallies;  // by path
  std::vector<SweepGroup> groups;

  void Aggregate();
  // 0 all met; 3 nondeterminism; else 1 (a safety problem) or 2 (only liveness problems).
  int ExitCode() const;
  nlohmann::json ToJson() const;
  static sim::Result<SweepReport> FromJson(const nlohmann::json& j, const std::string& file);
  std::string ToJunit() const;
  // The summary table and the failure groups with their replay commands.
  void PrintSummary(std::FILE* out) const;
};

// Message with digit runs replaced by '#'.
std::string FailureSignature(const std::string& message);
// One run's compact record.
SweepRun ToSweepRun(const scenario::RunReport& report, int64_t wall_ms);
nlohmann::json RunToJson(const SweepRun& run);
SweepRun RunFromJson(const nlohmann::json& j);

}  // namespace repartsim::tools
