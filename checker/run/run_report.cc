// RunReport rendering: the summary line, expectation matching and the --json report.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "checker/run/runner.h"
#include "sim/fingerprint.h"

namespace repartsim::run {

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPass:
      return "pass";
    case Outcome::kSafety:
      return "safety";
    case Outcome::kLiveness:
      return "liveness";
    case Outcome::kNondeterminism:
      return "nondeterminism";
    case Outcome::kCapped:
      return "capped";
  }
  return "?";
}

namespace {

// {"table": "append", ...}: a shape's features; null for a scenario without a shape.
nlohmann::json ShapeJson(const std::vector<std::pair<std::string, std::string>>& shape) {
  if (shape.empty()) return nullptr;
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : shape) j[name] = value;
  return j;
}

}  // namespace

std::string RunReport::SummaryLine() const {
  return summary.ToString() + " outcome=" + OutcomeName(outcome);
}

std::vector<std::string> RunReport::InvariantNames() const {
  std::vector<std::string> names;
  for (const check::Violation& v : violations) {
    std::string name(check::InvariantName(v.invariant));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> RunReport::Unexpected(const scenario::Expectation& expectation) const {
  std::vector<std::string> out;
  for (const std::string& name : InvariantNames()) {
    if (!expectation.Allows(name)) out.push_back(name);
  }
  return out;
}

bool RunReport::Meets(const scenario::Expectation& expectation) const {
  if (outcome == Outcome::kNondeterminism || !Unexpected(expectation).empty()) return false;
  if (expectation.pass) return true;
  for (const check::Violation& v : violations) {
    if (check::InvariantName(v.invariant) == expectation.invariant) return true;
  }
  return false;
}

nlohmann::json RunReport::ToJson() const {
  const std::string hash = sim::Hex64(summary.trace_hash);
  nlohmann::json violations_json = nlohmann::json::array();
  for (const check::Violation& v : violations) violations_json.push_back(v.ToJson());
  nlohmann::json stories_json = nlohmann::json::array();
  for (const Story& story : stories) {
    stories_json.push_back({{"cause", story.cause},
                            {"invariants", story.invariants},
                            {"violations", story.violations},
                            {"details", story.details}});
  }
  nlohmann::json crash = nlohmann::json::object();
  for (const auto& [site, counts] : crash_points) {
    crash[site] = {{"hits", counts.hits}, {"crashes", counts.crashes}};
  }
  return {
      {"scenario", scenario},
      {"path", path},
      {"profile", profile},
      {"rules", rules},
      {"faults", faults},
      {"shape", ShapeJson(shape)},
      {"outcome", OutcomeName(outcome)},
      {"summary",
       {{"seed", summary.seed},
        {"steps", summary.steps},
        {"prng_draws", summary.prng_draws},
        {"trace_hash", hash}}},
      {"time_ms", time_ms},
      {"heal_time_ms", heal_time_ms},
      {"quiescent", quiescent},
      {"capped", capped},
      {"livelock_steps", livelock_steps},
      {"end_reason", end_reason},
      {"nondeterminism", nondeterminism},
      {"stories", stories_json},
      {"violations", violations_json},
      {"crash_points", crash},
      {"probe_write_first", probe_write_first},
      {"network",
       {{"sent", network.sent},
        {"delivered", network.delivered},
        {"dropped_fault", network.dropped_fault},
        {"dropped_partition", network.dropped_partition},
        {"dropped_down", network.dropped_down},
        {"duplicated", network.duplicated},
        {"delayed", network.delayed}}},
      {"history",
       {{"writes", history.writes},
        {"acked", history.acked},
        {"rejected", history.rejected},
        {"unknown", history.unknown},
        {"pending", history.pending},
        {"queries", history.queries},
        {"queries_ok", history.queries_ok},
        {"queries_failed", history.queries_failed},
        {"ddls", history.ddls},
        {"ddls_done", history.ddls_done},
        {"ddls_failed", history.ddls_failed},
        {"ddls_rejected", history.ddls_rejected},
        {"ddls_unknown", history.ddls_unknown},
        {"probes", history.probes},
        {"probes_acked", history.probes_acked},
        {"probe_writes", history.probe_writes}}},
  };
}

}  // namespace repartsim::run
