#include "checker/report/run_text.h"

#include <map>
#include <set>
#include <sstream>

#include "checker/campaign/json_duplicates.h"
#include "checker/campaign/sweep_report.h"
#include "checker/check/violation.h"
#include "checker/scenario/swarm_shape.h"
#include "model/protocol/protocol.h"
#include "sim/assert.h"
#include "sim/json_bounds.h"
#include "sim/utf8.h"

namespace repartsim::report {

namespace {

std::string Counts(std::initializer_list<std::pair<const char*, uint64_t>> counts) {
  std::string text;
  for (const auto& [name, n] : counts) {
    text += (text.empty() ? "" : " ") + std::string(name) + "=" + std::to_string(n);
  }
  return text;
}

// The violations after the first `shown`, counted by invariant: "INV-ACK 2, INV-OWN 1".
std::string RestByInvariant(const std::vector<check::Violation>& violations, size_t shown) {
  REPARTSIM_ASSERT(shown < violations.size());
  std::map<std::string, size_t> rest;
  for (size_t i = shown; i < violations.size(); ++i) {
    ++rest[std::string(check::InvariantName(violations[i].invariant))];
  }
  std::string counts;
  for (const auto& [name, n] : rest) {
    counts += (counts.empty() ? "" : ", ") + name + " " + std::to_string(n);
  }
  return counts;
}

}  // namespace

std::string StoriesText(const run::RunReport& r) {
  std::string text;
  for (size_t i = 0; i < r.stories.size(); ++i) {
    const run::Story& story = r.stories[i];
    REPARTSIM_ASSERT(!story.violations.empty());
    text += "story " + std::to_string(i + 1) + " of " + std::to_string(r.stories.size()) + " (" +
            story.invariants + "): " + story.cause + "\n";
    for (const std::string& line : story.details) text += "  " + line + "\n";
  }
  if (!text.empty()) text += "\n";
  return text;
}

std::string RunReportText(const scenario::Scenario& s, const run::RunReport& r,
                          size_t violations_max) {
  REPARTSIM_ASSERT(!r.profile.empty());
  std::string text = "scenario " + sim::VisibleText(r.scenario) + " (" + sim::VisibleText(r.path) +
                     ") profile=" + r.profile + " rules=" + (r.rules.empty() ? "-" : r.rules) +
                     " faults: " + r.faults + "\n" + r.SummaryLine() + "\n";
  if (!r.shape.empty()) text += "shape: " + scenario::ShapeText(r.shape) + "\n";
  text += "end: " + r.end_reason + " at t=" + std::to_string(r.time_ms) + " ms (" +
          (r.heal_time_ms < 0 ? std::string("faults never healed")
                              : "faults healed at t=" + std::to_string(r.heal_time_ms) +
                                    " ms, step " + std::to_string(r.heal_step)) +
          ")\n";
  if (r.capped) {
    text +=
        "capped: limits.steps_max ended the run before its liveness phase did; what needs "
        "quiescence (INV-ACK's scan, the probes, INV-LIVE) was not checked\n";
  }
  const auto& h = r.history;
  text += "history: " +
          Counts({{"writes", h.writes},
                  {"acked", h.acked},
                  {"rejected", h.rejected},
                  {"unknown", h.unknown},
                  {"pending", h.pending},
                  {"queries", h.queries},
                  {"ok", h.queries_ok},
                  {"failed", h.queries_failed},
                  {"ddls", h.ddls},
                  {"done", h.ddls_done},
                  {"failed", h.ddls_failed},
                  {"rejected", h.ddls_rejected},
                  {"unknown", h.ddls_unknown}}) +
          "\n";
  text += "probes: " +
          Counts({{"rows", h.probes}, {"acked", h.probes_acked}, {"writes", h.probe_writes}}) +
          " (liveness write probes, in history)\n";
  if (auto e = s.ExpectationFor(r.profile, r.rules)) {
    std::string why;
    for (const std::string& name : r.Unexpected(*e)) {
      why += (why.empty() ? " (unexpected " : ", ") + name;
    }
    if (!why.empty()) why += ")";
    const std::string whose = s.RuleExpectationFor(r.profile, r.rules) != nullptr
                                  ? r.profile + " with " + r.rules
                                  : r.profile;
    text += "expect (" + whose + "): " + e->ToString() + " -> " +
            (r.Meets(*e) ? "met" : "NOT met") + why + "\n";
  }
  if (!r.nondeterminism.empty()) text += "nondeterminism: " + r.nondeterminism + "\n";
  text += StoriesText(r);
  // Decisive violations come first (RunReport::violations is sorted so); the rest are counted.
  // Each violation's context shows only the related lines no earlier violation showed; the
  // others are referred to by count.
  std::set<std::string> shown;
  for (size_t i = 0; i < r.violations.size() && i < violations_max; ++i) {
    check::Violation v = r.violations[i];
    const size_t related = v.trace.size();
    std::erase_if(v.trace, [&](const std::string& line) { return !shown.insert(line).second; });
    std::string again;
    if (v.trace.size() < related) {
      again = "  trace: (" + std::string(v.trace.empty() ? "the " : "and ") +
              std::to_string(related - v.trace.size()) +
              " related lines shown under earlier violations)\n";
    }
    text += v.ToText() + again + "\n";
  }
  if (r.violations.size() > violations_max) {
    text += "... and " + std::to_string(r.violations.size() - violations_max) +
            " more violations: " + RestByInvariant(r.violations, violations_max) +
            " (see --json, or --violations-max)\n";
  }
  check::Report all;
  all.Add(r.violations);
  const std::string summary = all.ToText();
  const size_t totals = summary.rfind("violations: ");
  REPARTSIM_ASSERT(totals != std::string::npos);
  return text + summary.substr(totals);
}

nlohmann::json RunReportJson(const scenario::Scenario& s, const run::RunReport& r,
                             const std::string& choices, const std::string& repro) {
  REPARTSIM_ASSERT(!repro.empty());
  nlohmann::json j = r.ToJson();
  if (auto e = s.ExpectationFor(r.profile, r.rules)) {
    j["expect"] = e->ToString();
    j["expect_met"] = r.Meets(*e);
    j["unexpected"] = r.Unexpected(*e);
  }
  j["choices"] = choices;
  j["repro"] = repro;
  return j;
}

void StampRunJson(nlohmann::json& j, const std::string& binary_version,
                  const std::string& binary_id) {
  j["version"] = kRunReportVersion;
  j["binary"] = {{"version", binary_version}, {"id", binary_id}};
}

sim::Result<RunIdentity> ReadRunIdentity(const std::string& text, const std::string& file) {
  sim::Status bounded = sim::CheckJsonBounds(
      text, sim::JsonBounds{kRunReportValuesMax, campaign::kReportDepthMax}, file, "run report");
  if (!bounded.ok()) return bounded.error();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    const size_t colon = what.find(": ", what.find("parse error"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    return sim::Error{sim::LocateOffset(text, e.byte == 0 ? 0 : e.byte - 1, file),
                      "not valid JSON: " + what};
  } catch (const nlohmann::json::exception& e) {
    return campaign::UnreadableJsonNumber(text, e.what(), file);
  }
  if (auto duplicate = campaign::FindDuplicateJsonKey(text)) {
    return campaign::DuplicateKeyError(text, *duplicate, file);
  }
  auto bad = [&](const std::vector<std::string>& path, const std::string& message) {
    std::string name;
    for (const std::string& p : path) name += (name.empty() ? "" : ".") + p;
    return sim::Error{campaign::LocateReportField(text, path, file),
                      name.empty() ? message : name + ": " + message};
  };
  if (!j.is_object()) return bad({}, "a run report is a JSON object (repartsim run --json)");
  RunIdentity id;
  for (const char* key : {"path", "profile", "rules"}) {
    if (!j.contains(key)) return bad({}, std::string("the run report has no \"") + key + "\"");
    if (!j[key].is_string()) return bad({key}, "expected a string");
  }
  id.path = j["path"].get<std::string>();
  id.profile = j["profile"].get<std::string>();
  if (!j.contains("summary") || !j["summary"].is_object()) {
    return bad({}, "the run report has no \"summary\" object");
  }
  const nlohmann::json& summary = j["summary"];
  if (!summary.contains("seed") || !summary["seed"].is_number_unsigned()) {
    return bad({"summary", "seed"}, "expected a non-negative integer seed");
  }
  id.seed = summary["seed"].get<uint64_t>();
  if (!summary.contains("trace_hash") || !summary["trace_hash"].is_string()) {
    return bad({"summary", "trace_hash"}, "expected the trace hash as a string \"0x...\"");
  }
  id.trace_hash = summary["trace_hash"].get<std::string>();
  std::istringstream items(j["rules"].get<std::string>());
  std::string item;
  while (std::getline(items, item, ',')) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || (item.substr(eq + 1) != "on" && item.substr(eq + 1) != "off")) {
      return bad({"rules"}, "expected name=on|off items separated by commas, got '" + item + "'");
    }
    id.rules.emplace_back(item.substr(0, eq), item.substr(eq + 1) == "on");
  }
  // The run's profile and rules are checked here, where they can be located in the report
  // (a run refuses them too, but at no place: "<input>: error: unknown profile").
  if (auto protocol = model::Protocol::FromProfileName(id.profile); !protocol.ok()) {
    return bad({"profile"}, protocol.error().message);
  }
  model::Protocol probe;
  for (const auto& [name, on] : id.rules) {
    if (sim::Status set = probe.SetByName(name, on); !set.ok()) {
      return bad({"rules"}, set.error().message);
    }
  }
  return id;
}

}  // namespace repartsim::report
