#include "tools/repartsim/report_sweep.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"

namespace repartsim::tools {

std::string FailureSignature(const std::string& message) {
  std::string out;
  bool in_digits = false;
  for (char c : message) {
    const bool digit = c >= '0' && c <= '9';
    if (digit && !in_digits) out += '#';
    if (!digit) out += c;
    in_digits = digit;
  }
  return out;
}

SweepRun ToSweepRun(const scenario::RunReport& r, int64_t wall_ms) {
  SweepRun run;
  run.path = r.path;
  run.seed = r.summary.seed;
  run.outcome = scenario::OutcomeName(r.outcome);
  run.steps = r.summary.steps;
  run.trace_hash = Hex64(r.summary.trace_hash);
  run.invariants = r.InvariantNames();
  run.wall_ms = wall_ms;
  for (const check::Violation& v : r.violations) {
    SweepFailure f{std::string(check::InvariantName(v.invariant)), FailureSignature(v.message),
                   v.message};
    bool seen = false;
    for (const SweepFailure& g : run.failures) {
      seen = seen || (g.invariant == f.invariant && g.signature == f.signature);
    }
    if (!seen) run.failures.push_back(std::move(f));
  }
  return run;
}

nlohmann::json RunToJson(const SweepRun& run) {
  nlohmann::json failures = nlohmann::json::array();
  for (const SweepFailure& f : run.failures) {
    failures.push_back({{"invariant", f.invariant}, {"signature", f.signature}, {"message", f.message}});
  }
  return {{"path", run.path},   {"seed", run.seed},           {"outcome", run.outcome},
          {"steps", run.steps}, {"trace_hash", run.trace_hash}, {"invariants", run.invariants},
          {"failures", failures}, {"wall_ms", run.wall_ms}};
}

SweepRun RunFromJson(const nlohmann::json& j) {
  SweepRun run;
  run.path = j.at("path").get<std::string>();
  run.seed = j.at("seed").get<uint64_t>();
  run.outcome = j.at("outcome").get<std::string>();
  run.steps = j.value("steps", uint64_t{0});
  run.trace_hash = j.value("trace_hash", std::string());
  run.invariants = j.value("invariants", std::vector<std::string>{});
  run.wall_ms = j.value("wall_ms", int64_t{0});
  for (const auto& f : j.value("failures", nlohmann::json::array())) {
    run.failures.push_back({f.at("invariant").get<std::string>(), f.at("signature").get<std::string>(),
                            f.at("message").get<std::string>()});
  }
  return run;
}

void SweepReport::Aggregate() {
  tallies.clear();
  groups.clear();
  std::map<std::string, const SweepScenario*> by_path;
  for (const SweepScenario& s : scenarios) by_path[s.path] = &s;
  std::map<std::string, std::vector<std::string>> found;  // path -> invariants seen
  for (const SweepRun& run : runs) {
    ScenarioTally& t = tallies[run.path];
    if (run.outcome == "skipped") {
      ++t.skipped;
      continue;
    }
    ++t.runs;
    t.pass += run.outcome == "pass";
    t.safety += run.outcome == "safety";
    t.liveness += run.outcome == "liveness";
    t.nondeterminism += run.outcome == "nondeterminism";
    for (const std::string& inv : run.invariants) found[run.path].push_back(inv);
    const SweepScenario* s = by_path.count(run.path) ? by_path[run.path] : nullptr;
    for (const SweepFailure& f : run.failures) {
      auto it = std::find_if(groups.begin(), groups.end(), [&](const SweepGroup& g) {
        return g.path == run.path && g.invariant == f.invariant && g.signature == f.signature;
      });
      if (it == groups.end()) {
        SweepGroup g{run.path, s ? s->name : run.path, f.invariant, f.signature, f.message,
                     0, run.seed, run.steps, s && s->expect == "violation: " + f.invariant};
        groups.push_back(g);
        it = groups.end() - 1;
      }
      ++it->count;
      if (run.steps < it->fastest_steps ||
          (run.steps == it->fastest_steps && run.seed < it->fastest_seed)) {
        it->fastest_seed = run.seed;
        it->fastest_steps = run.steps;
        it->message = f.message;
      }
    }
  }
  std::sort(groups.begin(), groups.end(), [](const SweepGroup& a, const SweepGroup& b) {
    return std::tie(a.path, a.invariant, a.signature) < std::tie(b.path, b.invariant, b.signature);
  });
  for (const SweepScenario& s : scenarios) {
    ScenarioTally& t = tallies[s.path];
    const auto& seen = found[s.path];
    if (t.nondeterminism > 0) {
      t.met = false;
      t.verdict = "NONDETERMINISM";
    } else if (raw || s.expect == "pass") {
      t.met = t.safety == 0 && t.liveness == 0;
      t.verdict = t.met ? "ok" : (t.safety > 0 ? "UNEXPECTED safety" : "UNEXPECTED liveness");
    } else {
      const std::string want = s.expect.substr(std::string("violation: ").size());
      t.met = std::find(seen.begin(), seen.end(), want) != seen.end();
      t.verdict = t.met ? "ok (reproduced " + want + ")" : "NOT REPRODUCED " + want;
    }
    if (t.runs == 0) {
      t.met = true;
      t.verdict = "no runs (shard or time budget)";
    }
  }
}

int SweepReport::ExitCode() const {
  if (!determinism_mismatches.empty()) return kExitNondeterminism;
  bool safety = false;
  bool liveness = false;
  for (const SweepScenario& s : scenarios) {
    const ScenarioTally& t = tallies.at(s.path);
    if (t.met) continue;
    if (t.nondeterminism > 0) return kExitNondeterminism;
    if (t.safety > 0 || t.liveness == 0) {
      safety = true;
    } else {
      liveness = true;
    }
  }
  if (safety) return kExitSafety;
  return liveness ? kExitLiveness : kExitPass;
}

nlohmann::json SweepReport::ToJson() const {
  nlohmann::json j;
  j["version"] = 1;
  j["seeds"] = seeds;
  j["shard"] = shard;
  j["raw"] = raw;
  j["exit_code"] = ExitCode();
  j["scenarios"] = nlohmann::json::array();
  for (const SweepScenario& s : scenarios) {
    const ScenarioTally& t = tallies.at(s.path);
    j["scenarios"].push_back({{"path", s.path}, {"name", s.name}, {"profile", s.profile},
                              {"expect", s.expect}, {"runs", t.runs}, {"pass", t.pass},
                              {"safety", t.safety}, {"liveness", t.liveness},
                              {"nondeterminism", t.nondeterminism}, {"skipped", t.skipped},
                              {"met", t.met}, {"verdict", t.verdict}});
  }
  j["groups"] = nlohmann::json::array();
  for (const SweepGroup& g : groups) {
    j["groups"].push_back({{"path", g.path}, {"scenario", g.name}, {"invariant", g.invariant},
                           {"signature", g.signature}, {"message", g.message},
                           {"count", g.count}, {"fastest_seed", g.fastest_seed},
                           {"fastest_steps", g.fastest_steps}, {"expected", g.expected}});
  }
  j["determinism"] = {{"checked", determinism_checked}, {"mismatches", determinism_mismatches}};
  j["runs"] = nlohmann::json::array();
  for (const SweepRun& run : runs) j["runs"].push_back(RunToJson(run));
  return j;
}

sim::Result<SweepReport> SweepReport::FromJson(const nlohmann::json& j, const std::string& file) {
  SweepReport r;
  if (!j.is_object() || j.value("version", 0) != 1 || !j.contains("runs") ||
      !j.contains("scenarios")) {
    return sim::Error{sim::SourceLocation{file, 0, 0}, "not a repartsim sweep report (version 1)"};
  }
  r.seeds = j.value("seeds", std::string());
  r.shard = j.value("shard", std::string());
  r.raw = j.value("raw", false);
  for (const auto& s : j.at("scenarios")) {
    r.scenarios.push_back({s.at("path").get<std::string>(), s.at("name").get<std::string>(),
                           s.at("profile").get<std::string>(), s.at("expect").get<std::string>()});
  }
  for (const auto& run : j.at("runs")) r.runs.push_back(RunFromJson(run));
  const auto& det = j.value("determinism", nlohmann::json::object());
  r.determinism_checked = det.value("checked", uint64_t{0});
  r.determinism_mismatches = det.value("mismatches", std::vector<std::string>{});
  return r;
}

namespace {

std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string SweepReport::ToJunit() const {
  size_t failures = 0;
  for (const SweepScenario& s : scenarios) failures += !tallies.at(s.path).met;
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites name=\"repartsim sweep\" tests=\"" + std::to_string(scenarios.size()) +
         "\" failures=\"" + std::to_string(failures) + "\">\n";
  xml += "  <testsuite name=\"scenarios\" tests=\"" + std::to_string(scenarios.size()) +
         "\" failures=\"" + std::to_string(failures) + "\">\n";
  for (const SweepScenario& s : scenarios) {
    const ScenarioTally& t = tallies.at(s.path);
    xml += "    <testcase classname=\"" + XmlEscape(s.profile) + "\" name=\"" +
           XmlEscape(s.name + " (" + s.path + ")") + "\">\n";
    if (!t.met) {
      std::string body;
      for (const SweepGroup& g : groups) {
        if (g.path != s.path) continue;
        body += g.invariant + " x" + std::to_string(g.count) + ": " + g.message +
                "\n  replay: repartsim run " + g.path + " --seed " +
                std::to_string(g.fastest_seed) + " --profile " + s.profile + "\n";
      }
      xml += "      <failure message=\"" + XmlEscape(t.verdict + "; expected " + s.expect) +
             "\">" + XmlEscape(body) + "</failure>\n";
    }
    xml += "      <system-out>" +
           XmlEscape("runs=" + std::to_string(t.runs) + " pass=" + std::to_string(t.pass) +
                     " safety=" + std::to_string(t.safety) +
                     " liveness=" + std::to_string(t.liveness)) +
           "</system-out>\n    </testcase>\n";
  }
  xml += "  </testsuite>\n</testsuites>\n";
  return xml;
}

void SweepReport::PrintSummary(std::FILE* out) const {
  std::fprintf(out, "%-34s %-9s %-24s %5s %5s %6s %5s  %s\n", "scenario", "profile", "expect",
               "runs", "pass", "safety", "live", "result");
  for (const SweepScenario& s : scenarios) {
    const ScenarioTally& t = tallies.at(s.path);
    std::fprintf(out, "%-34s %-9s %-24s %5llu %5llu %6llu %5llu  %s\n", s.name.c_str(),
                 s.profile.c_str(), s.expect.c_str(), (unsigned long long)t.runs,
                 (unsigned long long)t.pass, (unsigned long long)t.safety,
                 (unsigned long long)t.liveness, t.verdict.c_str());
  }
  if (!groups.empty()) std::fprintf(out, "\nfailure groups (fastest failing seed of each):\n");
  for (const SweepGroup& g : groups) {
    const SweepScenario* s = nullptr;
    for (const SweepScenario& x : scenarios) s = x.path == g.path ? &x : s;
    std::fprintf(out, "  %s %s %s x%llu: %s\n    repartsim run %s --seed %llu%s\n",
                 g.expected ? "[expected]" : "[UNEXPECTED]", g.name.c_str(), g.invariant.c_str(),
                 (unsigned long long)g.count, g.message.c_str(), g.path.c_str(),
                 (unsigned long long)g.fastest_seed,
                 s ? (" --profile " + s->profile).c_str() : "");
  }
  std::fprintf(out, "determinism re-check: %llu runs, %zu mismatches\n",
               (unsigned long long)determinism_checked, determinism_mismatches.size());
  for (const std::string& m : determinism_mismatches) std::fprintf(out, "  %s\n", m.c_str());
}

}  // namespace repartsim::tools
