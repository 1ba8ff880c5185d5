#include "checker/campaign/sweep_report.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "checker/campaign/exit_code.h"
#include "checker/campaign/json_duplicates.h"
#include "checker/campaign/sweep_plan.h"
#include "checker/campaign/verdict.h"
#include "checker/check/violation.h"
#include "checker/scenario/scenario.h"
#include "checker/scenario/seed_range.h"
#include "checker/scenario/swarm_shape.h"
#include "sim/assert.h"
#include "sim/fingerprint.h"
#include "sim/input_file.h"
#include "sim/json_bounds.h"
#include "sim/json_text.h"
#include "sim/parse_u64.h"

namespace repartsim::campaign {

namespace {

const std::set<std::string> kOutcomes = {"pass",   "safety",  "liveness", "nondeterminism",
                                         "capped", "skipped", "unrun",    "internal-error"};

// check::IsLivenessInvariant of a reported invariant name.
bool IsLivenessName(const std::string& name) {
  const std::optional<check::Invariant> invariant = check::ParseInvariant(name);
  return invariant && check::IsLivenessInvariant(*invariant);
}

std::string RowKey(const std::string& path, const std::string& profile, const std::string& rules) {
  return path + "|" + profile + "|" + rules;
}

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-';
}

// Singular of the words violation messages pluralise with a count.
std::string Singular(const std::string& word) {
  static const std::map<std::string, std::string> kWords = {
      {"rows", "row"},       {"are", "is"},       {"show", "shows"},  {"steps", "step"},
      {"regions", "region"}, {"writes", "write"}, {"values", "value"}};
  auto it = kWords.find(word);
  return it == kWords.end() ? word : it->second;
}

}  // namespace

std::string FailureSignature(const std::string& text) {
  // An expression's SQL varies with the region's bounds: keep only that there was one.
  std::string message = text;
  for (const char* marker : {" outside its expression ", " outside its staging expression "}) {
    const size_t at = message.find(marker);
    if (at != std::string::npos) message = message.substr(0, at + std::strlen(marker)) + "_";
  }
  std::string folded;
  for (size_t i = 0; i < message.size(); ++i) {
    const char c = message[i];
    if (c == '`' || c == '\'') {
      const size_t end = message.find(c, i + 1);
      if (end != std::string::npos) {
        folded += c;
        folded += '_';
        folded += c;
        i = end;
        continue;
      }
    }
    if (c >= '0' && c <= '9') {
      while (i + 1 < message.size() && message[i + 1] >= '0' && message[i + 1] <= '9') ++i;
      folded += '#';
      continue;
    }
    folded += c;
  }
  std::string out;
  for (size_t i = 0; i < folded.size();) {
    if (!IsWordChar(folded[i])) {
      out += folded[i++];
      continue;
    }
    size_t end = i;
    while (end < folded.size() && IsWordChar(folded[end])) ++end;
    out += Singular(folded.substr(i, end - i));
    i = end;
  }
  return out;
}

sim::Result<SweepReport> ReadSweepReport(const std::string& path) {
  auto text = sim::ReadInputFile(path, kSweepReportBytesMax, "sweep report");
  if (!text.ok()) return text.error();
  return SweepReport::FromJson(text.value(), path);
}

std::string FileHash(const std::string& path) {
  // One read of the whole file: a sweep hashes its own executable (tens of MB with debug
  // information), which a character-by-character stream read made a tenth of a short sweep.
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  if (size < 0) return "";
  std::string bytes(static_cast<size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), size)) return "";
  sim::Hasher h;
  h.Add(std::string_view(bytes));
  return sim::Hex64(h.Finish());
}

std::string SweepRun::Key() const { return RowKey(path, profile, rules); }
std::string SweepScenario::Key() const { return RowKey(path, profile, rules); }

std::string SweepScenario::ExpectedInvariant() const {
  const std::string prefix = "violation: ";
  return expect.rfind(prefix, 0) == 0 ? expect.substr(prefix.size()) : "";
}

bool SweepScenario::Allows(const std::string& invariant) const {
  scenario::Expectation e;
  e.invariant = ExpectedInvariant();
  e.pass = e.invariant.empty();
  e.tolerate = tolerate;
  return e.Allows(invariant);
}

SweepRun ToSweepRun(const run::RunReport& r, const std::string& rules, int64_t wall_ms) {
  SweepRun run;
  run.path = r.path;
  run.profile = r.profile;
  run.rules = rules;
  run.seed = r.summary.seed;
  run.outcome = run::OutcomeName(r.outcome);
  run.steps = r.summary.steps;
  run.trace_hash = sim::Hex64(r.summary.trace_hash);
  run.invariants = r.InvariantNames();
  run.wall_ms = wall_ms;
  run.shape = scenario::ShapeText(r.shape);
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
    failures.push_back(
        {{"invariant", f.invariant}, {"signature", f.signature}, {"message", f.message}});
  }
  nlohmann::json j = {{"path", run.path},
                      {"profile", run.profile},
                      {"rules", run.rules},
                      {"seed", run.seed},
                      {"outcome", run.outcome},
                      {"steps", run.steps},
                      {"trace_hash", run.trace_hash},
                      {"invariants", run.invariants},
                      {"failures", failures},
                      {"wall_ms", run.wall_ms}};
  if (!run.shape.empty()) j["shape"] = run.shape;  // only swarm-shaped runs carry one
  return j;
}

// Lenient reader for the worker pipe (this process wrote it); reports go through FromJson.
SweepRun RunFromJson(const nlohmann::json& j) {
  SweepRun run;
  run.path = j.at("path").get<std::string>();
  run.profile = j.value("profile", std::string());
  run.rules = j.value("rules", std::string());
  run.seed = j.at("seed").get<uint64_t>();
  run.outcome = j.at("outcome").get<std::string>();
  run.steps = j.value("steps", uint64_t{0});
  run.trace_hash = j.value("trace_hash", std::string());
  run.invariants = j.value("invariants", std::vector<std::string>{});
  run.wall_ms = j.value("wall_ms", int64_t{0});
  run.shape = j.value("shape", std::string());
  for (const auto& f : j.value("failures", nlohmann::json::array())) {
    run.failures.push_back({f.at("invariant").get<std::string>(),
                            f.at("signature").get<std::string>(),
                            f.at("message").get<std::string>()});
  }
  return run;
}

const SweepScenario* SweepReport::FindScenario(const std::string& key) const {
  for (const SweepScenario& s : scenarios) {
    if (s.Key() == key) return &s;
  }
  return nullptr;
}

bool InvariantAllowed(const std::string& invariant, const SweepScenario* s, bool raw) {
  return invariant == "READ-ANOMALY" || (!raw && s != nullptr && s->Allows(invariant));
}

bool RunUnexpected(const SweepRun& run, const SweepScenario* s, bool raw) {
  if (run.outcome == "nondeterminism") return true;
  return std::any_of(run.invariants.begin(), run.invariants.end(),
                     [&](const std::string& inv) { return !InvariantAllowed(inv, s, raw); });
}

namespace {

using GroupIndex = std::map<std::tuple<std::string, std::string, std::string>, size_t>;

// Counts `run` (not skipped, not unrun) into `t`: its outcome and its invariants, judged by
// scenario `s` (nullptr: unknown, every invariant unexpected) unless `raw`.
void TallyRun(ScenarioTally& t, const SweepRun& run, const SweepScenario* s, bool raw) {
  REPARTSIM_ASSERT(run.outcome != "skipped" && run.outcome != "unrun");
  ++t.runs;
  t.pass += run.outcome == "pass";
  t.safety += run.outcome == "safety";
  t.nondeterminism += run.outcome == "nondeterminism";
  t.capped += run.outcome == "capped";
  bool live = false, anomaly = false, unexpected = false;
  for (const std::string& inv : run.invariants) {
    live = live || IsLivenessName(inv);
    anomaly = anomaly || inv == "READ-ANOMALY";
    if (s && inv == s->ExpectedInvariant()) t.reproduced = true;
    if (!InvariantAllowed(inv, s, raw)) {
      unexpected = true;
      if (std::find(t.unexpected_invariants.begin(), t.unexpected_invariants.end(), inv) ==
          t.unexpected_invariants.end()) {
        t.unexpected_invariants.push_back(inv);
      }
    }
  }
  t.liveness += live;
  t.anomalies += anomaly;
  t.unexpected += unexpected;
}

// Adds `run`'s failures to `groups` (one per scenario key, invariant and signature), keeping
// each group's fastest run (fewest steps, then lowest seed) as its example.
void GroupFailures(std::vector<SweepGroup>& groups, GroupIndex& index, const std::string& key,
                   const SweepRun& run, const SweepScenario* s, bool raw) {
  for (const SweepFailure& f : run.failures) {
    auto [it, inserted] = index.try_emplace({key, f.invariant, f.signature}, groups.size());
    if (inserted) {
      SweepGroup g;
      g.key = key;
      g.path = run.path;
      g.name = s ? s->name : run.path;
      g.profile = run.profile;
      g.rules = run.rules;
      g.invariant = f.invariant;
      g.signature = f.signature;
      g.message = f.message;
      g.fastest_seed = run.seed;
      g.fastest_steps = run.steps;
      g.fastest_shape = run.shape;
      const bool expected = !raw && s && f.invariant == s->ExpectedInvariant();
      const bool allowed = f.invariant == "READ-ANOMALY" || (!raw && s && s->Allows(f.invariant));
      g.status = expected ? "expected" : allowed ? "tolerated" : "UNEXPECTED";
      groups.push_back(std::move(g));
    }
    SweepGroup& g = groups[it->second];
    ++g.count;
    if (run.steps < g.fastest_steps ||
        (run.steps == g.fastest_steps && run.seed < g.fastest_seed)) {
      g.fastest_seed = run.seed;
      g.fastest_steps = run.steps;
      g.fastest_shape = run.shape;
      g.message = f.message;
    }
  }
  REPARTSIM_ASSERT(index.size() == groups.size());
}

}  // namespace

void SweepReport::Aggregate() {
  tallies.clear();
  groups.clear();
  std::map<std::string, const SweepScenario*> by_key;
  for (const SweepScenario& s : scenarios) by_key[s.Key()] = &s;
  GroupIndex group_index;
  for (const SweepRun& run : runs) {
    const std::string key = run.Key();
    ScenarioTally& t = tallies[key];
    if (run.outcome == "skipped") {
      ++t.skipped;
      continue;
    }
    if (run.outcome == "unrun") {
      ++t.unrun;
      continue;
    }
    const SweepScenario* s = by_key.count(key) ? by_key[key] : nullptr;
    TallyRun(t, run, s, raw);
    GroupFailures(groups, group_index, key, run, s, raw);
  }
  std::sort(groups.begin(), groups.end(), [](const SweepGroup& a, const SweepGroup& b) {
    const bool ua = a.status == "UNEXPECTED", ub = b.status == "UNEXPECTED";
    return std::tie(ub, a.key, a.invariant, a.signature) <
           std::tie(ua, b.key, b.invariant, b.signature);
  });
  for (const SweepScenario& s : scenarios) {
    ScenarioTally& t = tallies[s.Key()];
    std::sort(t.unexpected_invariants.begin(), t.unexpected_invariants.end());
    campaign::RowVerdict v = campaign::JudgeRow(t, s.ExpectedInvariant(), raw, complete);
    t.met = v.met;
    t.verdict = std::move(v.text);
  }
}

int SweepReport::ExitCode() const {
  bool unrun = false, nondeterminism = !determinism_mismatches.empty();
  bool safety = false, liveness = false;
  for (const SweepScenario& s : scenarios) {
    const ScenarioTally& t = tallies.at(s.Key());
    if (t.met) continue;
    if (t.unrun > 0) {
      unrun = true;
    } else if (t.nondeterminism > 0) {
      nondeterminism = true;
    } else {
      bool only_live = !t.unexpected_invariants.empty();
      for (const std::string& inv : t.unexpected_invariants)
        only_live = only_live && IsLivenessName(inv);
      (only_live ? liveness : safety) = true;
    }
  }
  const bool internal = std::any_of(runs.begin(), runs.end(), [](const SweepRun& run) {
    return run.outcome == "internal-error";
  });
  if (unrun || internal) return kExitInternal;
  if (nondeterminism) return kExitNondeterminism;
  if (safety) return kExitSafety;
  if (liveness) return kExitLiveness;
  return kExitPass;
}

std::string SweepReport::SweepId() const {
  sim::Hasher h;
  h.Add(std::string_view(binary_id)).Add(std::string_view(seeds)).Add(raw);
  h.Add(std::string_view(rules));
  h.Add(std::string_view(shard.substr(shard.find('/') == std::string::npos ? 0 : shard.find('/'))));
  for (const SweepScenario& s : scenarios) {
    h.Add(std::string_view(s.Key())).Add(std::string_view(s.hash));
  }
  return sim::Hex64(h.Finish());
}

nlohmann::json SweepReport::ToJson() const {
  nlohmann::json j;
  j["version"] = kSweepReportVersion;
  j["binary"] = {{"version", binary_version}, {"id", binary_id}};
  j["sweep_id"] = sweep_id;
  j["seeds"] = seeds;
  j["shard"] = shard;
  j["rules"] = rules;
  j["raw"] = raw;
  j["complete"] = complete;
  j["interrupted"] = interrupted;
  j["wall_ms"] = wall_ms;
  j["notes"] = notes;
  j["exit_code"] = ExitCode();
  j["scenarios"] = nlohmann::json::array();
  for (const SweepScenario& s : scenarios) {
    const ScenarioTally& t = tallies.at(s.Key());
    j["scenarios"].push_back({{"path", s.path},
                              {"name", s.name},
                              {"profile", s.profile},
                              {"rules", s.rules},
                              {"hash", s.hash},
                              {"expect", s.expect},
                              {"tolerate", s.tolerate},
                              {"runs", t.runs},
                              {"pass", t.pass},
                              {"safety", t.safety},
                              {"liveness", t.liveness},
                              {"anomalies", t.anomalies},
                              {"unexpected", t.unexpected},
                              {"unexpected_invariants", t.unexpected_invariants},
                              {"nondeterminism", t.nondeterminism},
                              {"capped", t.capped},
                              {"skipped", t.skipped},
                              {"unrun", t.unrun},
                              {"met", t.met},
                              {"verdict", t.verdict}});
  }
  j["groups"] = nlohmann::json::array();
  for (const SweepGroup& g : groups) {
    j["groups"].push_back({{"path", g.path},
                           {"scenario", g.name},
                           {"profile", g.profile},
                           {"rules", g.rules},
                           {"invariant", g.invariant},
                           {"signature", g.signature},
                           {"message", g.message},
                           {"count", g.count},
                           {"fastest_seed", g.fastest_seed},
                           {"fastest_steps", g.fastest_steps},
                           {"status", g.status},
                           {"repro", ReproCommand(g.path, g.fastest_seed, g.profile, g.rules)}});
    if (!g.fastest_shape.empty()) j["groups"].back()["shape"] = g.fastest_shape;
  }
  j["determinism"] = {{"checked", determinism_checked}, {"mismatches", determinism_mismatches}};
  j["runs"] = nlohmann::json::array();
  for (const SweepRun& run : runs) j["runs"].push_back(RunToJson(run));
  return j;
}

namespace {

// A report field that failed validation: its path (object keys, array indices) and why.
struct BadField {
  std::vector<std::string> path;
  std::string message;
};

// Finds the byte offset of the value at `path` in the JSON `text` (a minimal scanner: the
// text already parsed, so it is well formed).
class JsonLocator {
 public:
  explicit JsonLocator(const std::string& text) : t_(text) {}

  size_t Find(const std::vector<std::string>& path) {
    i_ = 0;
    size_t best = 0;
    Ws();
    for (const std::string& token : path) {
      best = i_;
      if (!Enter(token)) return best;
      Ws();
    }
    return i_;
  }

 private:
  void Ws() {
    while (i_ < t_.size() &&
           (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t')) {
      ++i_;
    }
  }
  std::string String() {
    std::string out;
    ++i_;  // opening quote
    while (i_ < t_.size() && t_[i_] != '"') {
      if (t_[i_] == '\\') ++i_;
      if (i_ < t_.size()) out += t_[i_++];
    }
    ++i_;
    return out;
  }
  void Skip() {
    Ws();
    if (i_ >= t_.size()) return;
    if (t_[i_] == '"') {
      String();
    } else if (t_[i_] == '{' || t_[i_] == '[') {
      const char close = t_[i_] == '{' ? '}' : ']';
      ++i_;
      Ws();
      while (i_ < t_.size() && t_[i_] != close) {
        if (close == '}') {
          String();
          Ws();
          ++i_;  // ':'
        }
        Skip();
        Ws();
        if (i_ < t_.size() && t_[i_] == ',') ++i_;
        Ws();
      }
      ++i_;
    } else {
      while (i_ < t_.size() && t_[i_] != ',' && t_[i_] != '}' && t_[i_] != ']' && t_[i_] != ' ' &&
             t_[i_] != '\n') {
        ++i_;
      }
    }
  }
  // Moves to the member `token` of the object (or element of the array) at i_.
  bool Enter(const std::string& token) {
    if (i_ >= t_.size() || (t_[i_] != '{' && t_[i_] != '[')) return false;
    const bool object = t_[i_] == '{';
    const char close = object ? '}' : ']';
    ++i_;
    Ws();
    for (size_t index = 0; i_ < t_.size() && t_[i_] != close; ++index) {
      bool match = false;
      if (object) {
        match = String() == token;
        Ws();
        ++i_;  // ':'
      } else {
        match = std::to_string(index) == token;
      }
      Ws();
      if (match) return true;
      Skip();
      Ws();
      if (i_ < t_.size() && t_[i_] == ',') ++i_;
      Ws();
    }
    return false;
  }

  const std::string& t_;
  size_t i_ = 0;
};

std::string PathText(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& p : path) {
    const bool index = !p.empty() && p.find_first_not_of("0123456789") == std::string::npos;
    out += index ? "[" + p + "]" : (out.empty() ? "" : ".") + p;
  }
  return out.empty() ? "the report" : out;
}

// Typed access to the fields of a report, throwing BadField with the field's path.
class Fields {
 public:
  using json = nlohmann::json;
  using Path = std::vector<std::string>;

  static const json& Member(const json& obj, const Path& at, const std::string& key) {
    if (!obj.is_object()) throw BadField{at, "expected an object"};
    auto it = obj.find(key);
    if (it == obj.end()) throw BadField{at, "missing field '" + key + "'"};
    return *it;
  }
  static std::string Str(const json& obj, const Path& at, const std::string& key) {
    const json& v = Member(obj, at, key);
    if (!v.is_string()) throw BadField{Join(at, key), "'" + key + "' must be a string"};
    return v.get<std::string>();
  }
  static uint64_t U64(const json& obj, const Path& at, const std::string& key) {
    const json& v = Member(obj, at, key);
    if (!v.is_number_unsigned()) {
      throw BadField{Join(at, key),
                     "'" + key + "' must be a non-negative integer, got " + sim::JsonText(v)};
    }
    return v.get<uint64_t>();
  }
  static int64_t I64(const json& obj, const Path& at, const std::string& key) {
    const json& v = Member(obj, at, key);
    if (!v.is_number_integer()) throw BadField{Join(at, key), "'" + key + "' must be an integer"};
    return v.get<int64_t>();
  }
  static bool Bool(const json& obj, const Path& at, const std::string& key) {
    const json& v = Member(obj, at, key);
    if (!v.is_boolean()) throw BadField{Join(at, key), "'" + key + "' must be true or false"};
    return v.get<bool>();
  }
  static const json& Array(const json& obj, const Path& at, const std::string& key) {
    const json& v = Member(obj, at, key);
    if (!v.is_array()) throw BadField{Join(at, key), "'" + key + "' must be an array"};
    return v;
  }
  static std::vector<std::string> Strings(const json& obj, const Path& at, const std::string& key) {
    const json& a = Array(obj, at, key);
    std::vector<std::string> out;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!a[i].is_string())
        throw BadField{Join(Join(at, key), std::to_string(i)), "expected a string"};
      out.push_back(a[i].get<std::string>());
    }
    return out;
  }
  static Path Join(Path at, const std::string& key) {
    at.push_back(key);
    return at;
  }
};

void CheckInvariantName(const std::string& name, const Fields::Path& at) {
  if (name != kInternalErrorName && !check::ParseInvariant(name))
    throw BadField{at, "unknown invariant '" + name + "'"};
}

bool ValidShard(const std::string& shard) { return ParseShard(shard).has_value(); }

// The report's top-level fields other than its rows, runs and determinism record.
void ReadHeader(const nlohmann::json& j, SweepReport& r) {
  using F = Fields;
  const F::Path root;
  if (!j.is_object()) throw BadField{root, "not a repartsim sweep report (expected an object)"};
  if (!j.contains("version")) throw BadField{root, "not a repartsim sweep report (no 'version')"};
  const nlohmann::json& version = j.at("version");
  if (!version.is_number_integer() || version.get<int64_t>() != kSweepReportVersion) {
    throw BadField{{"version"},
                   "sweep report schema version " + sim::JsonText(version) +
                       "; this repartsim reads version " + std::to_string(kSweepReportVersion) +
                       " (re-run the sweep with this binary)"};
  }
  const nlohmann::json& binary = F::Member(j, root, "binary");
  r.binary_version = F::Str(binary, {"binary"}, "version");
  r.binary_id = F::Str(binary, {"binary"}, "id");
  r.sweep_id = F::Str(j, root, "sweep_id");
  r.seeds = F::Str(j, root, "seeds");
  r.shard = F::Str(j, root, "shard");
  if (!ValidShard(r.shard))
    throw BadField{{"shard"}, "'shard' must be I/N with 0 <= I < N, got '" + r.shard + "'"};
  r.rules = F::Str(j, root, "rules");
  r.raw = F::Bool(j, root, "raw");
  r.complete = F::Bool(j, root, "complete");
  r.interrupted = F::Bool(j, root, "interrupted");
  r.wall_ms = F::I64(j, root, "wall_ms");
  r.notes = F::Strings(j, root, "notes");
}

SweepScenario ReadScenarioRow(const nlohmann::json& s, const Fields::Path& at) {
  using F = Fields;
  SweepScenario row{F::Str(s, at, "path"),        F::Str(s, at, "name"), F::Str(s, at, "profile"),
                    F::Str(s, at, "rules"),       F::Str(s, at, "hash"), F::Str(s, at, "expect"),
                    F::Strings(s, at, "tolerate")};
  if (row.profile != "greptime" && row.profile != "reference") {
    throw BadField{F::Join(at, "profile"), "unknown profile '" + row.profile + "'"};
  }
  if (row.expect != "pass") {
    if (row.expect.rfind("violation: ", 0) != 0) {
      throw BadField{F::Join(at, "expect"),
                     "'expect' must be 'pass' or 'violation: INV-...', got '" + row.expect + "'"};
    }
    CheckInvariantName(row.ExpectedInvariant(), F::Join(at, "expect"));
  }
  for (size_t k = 0; k < row.tolerate.size(); ++k) {
    CheckInvariantName(row.tolerate[k], F::Join(F::Join(at, "tolerate"), std::to_string(k)));
  }
  return row;
}

// One run; `range` is the sweep's seeds (nullopt: per-scenario seeds).
SweepRun ReadRun(const nlohmann::json& x, const Fields::Path& at, const std::string& seeds,
                 const std::optional<std::pair<uint64_t, uint64_t>>& range) {
  using F = Fields;
  SweepRun run;
  run.path = F::Str(x, at, "path");
  run.profile = F::Str(x, at, "profile");
  run.rules = F::Str(x, at, "rules");
  run.seed = F::U64(x, at, "seed");
  if (range && (run.seed < range->first || run.seed > range->second)) {
    throw BadField{F::Join(at, "seed"),
                   "seed " + std::to_string(run.seed) + " lies outside the sweep's seeds " + seeds};
  }
  run.outcome = F::Str(x, at, "outcome");
  if (!kOutcomes.count(run.outcome)) {
    throw BadField{F::Join(at, "outcome"),
                   "unknown outcome '" + run.outcome +
                       "'; expected pass, safety, liveness, nondeterminism, capped, skipped, "
                       "unrun or internal-error"};
  }
  run.steps = F::U64(x, at, "steps");
  run.trace_hash = F::Str(x, at, "trace_hash");
  // "" for a run that never ran; else what Hex64 writes. Before: any string was kept, so a
  // damaged hash merged and later compared unequal to every rerun.
  if (!run.trace_hash.empty() &&
      (run.trace_hash.size() != 18 || run.trace_hash.rfind("0x", 0) != 0 ||
       !sim::ParseU64(run.trace_hash.substr(2), 16))) {
    throw BadField{F::Join(at, "trace_hash"),
                   "'trace_hash' must be 0x and 16 hex digits, got '" + run.trace_hash + "'"};
  }
  run.invariants = F::Strings(x, at, "invariants");
  for (size_t k = 0; k < run.invariants.size(); ++k) {
    CheckInvariantName(run.invariants[k], F::Join(F::Join(at, "invariants"), std::to_string(k)));
  }
  const nlohmann::json& failures = F::Array(x, at, "failures");
  for (size_t k = 0; k < failures.size(); ++k) {
    const F::Path fat = F::Join(F::Join(at, "failures"), std::to_string(k));
    SweepFailure f{F::Str(failures[k], fat, "invariant"), F::Str(failures[k], fat, "signature"),
                   F::Str(failures[k], fat, "message")};
    CheckInvariantName(f.invariant, F::Join(fat, "invariant"));
    run.failures.push_back(std::move(f));
  }
  run.wall_ms = F::I64(x, at, "wall_ms");
  if (x.contains("shape")) run.shape = F::Str(x, at, "shape");  // swarm-shaped runs only
  return run;
}

SweepReport ReadReport(const nlohmann::json& j) {
  using F = Fields;
  SweepReport r;
  const F::Path root;
  ReadHeader(j, r);
  const nlohmann::json& scenarios = F::Array(j, root, "scenarios");
  std::set<std::string> keys;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    const F::Path at = {"scenarios", std::to_string(i)};
    SweepScenario row = ReadScenarioRow(scenarios[i], at);
    if (!keys.insert(row.Key()).second) {
      throw BadField{at, "scenario " + row.path + " (profile " + row.profile + ") is listed twice"};
    }
    r.scenarios.push_back(std::move(row));
  }
  const nlohmann::json& runs = F::Array(j, root, "runs");
  const auto range = scenario::ParseSeedRange(r.seeds);  // nullopt: "per-scenario"
  for (size_t i = 0; i < runs.size(); ++i) {
    const F::Path at = {"runs", std::to_string(i)};
    SweepRun run = ReadRun(runs[i], at, r.seeds, range);
    if (!keys.count(run.Key())) {
      throw BadField{at, "run of scenario " + run.path + " (profile " + run.profile +
                             (run.rules.empty() ? "" : ", rules " + run.rules) +
                             ") is not listed in 'scenarios'"};
    }
    r.runs.push_back(std::move(run));
  }
  const nlohmann::json& det = F::Member(j, root, "determinism");
  r.determinism_checked = F::U64(det, {"determinism"}, "checked");
  r.determinism_mismatches = F::Strings(det, {"determinism"}, "mismatches");
  REPARTSIM_ASSERT(r.runs.size() == runs.size());
  return r;
}

}  // namespace

sim::SourceLocation LocateReportField(const std::string& text, const std::vector<std::string>& path,
                                      const std::string& file) {
  JsonLocator locator(text);
  return sim::LocateOffset(text, locator.Find(path), file);
}

sim::Error DuplicateKeyError(const std::string& text, const std::vector<std::string>& path,
                             const std::string& file) {
  REPARTSIM_ASSERT(!path.empty());
  return sim::Error{LocateReportField(text, path, file),
                    PathText(path) + ": the key \"" + path.back() +
                        "\" appears twice in one object (JSON would keep only the last)"};
}

sim::Error UnreadableJsonNumber(const std::string& text, const std::string& what,
                                const std::string& file) {
  // The exception carries no offset: locate the quoted token.
  const size_t open = what.find('\'');
  const size_t close = open == std::string::npos ? open : what.find('\'', open + 1);
  size_t offset = 0;
  if (close != std::string::npos && close > open + 1) {
    const size_t at = text.find(what.substr(open + 1, close - open - 1));
    if (at != std::string::npos) offset = at;
  }
  return sim::Error{sim::LocateOffset(text, offset, file), "not valid JSON: " + what};
}

sim::Result<SweepReport> SweepReport::FromJson(const std::string& text, const std::string& file) {
  sim::Status bounded = sim::CheckJsonBounds(
      text, sim::JsonBounds{kSweepReportValuesMax, kReportDepthMax}, file, "sweep report");
  if (!bounded.ok()) return bounded.error();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return sim::Error{sim::LocateOffset(text, e.byte == 0 ? 0 : e.byte - 1, file),
                      "not valid JSON: " + std::string(e.what())};
  } catch (const nlohmann::json::exception& e) {
    return UnreadableJsonNumber(text, e.what(), file);
  }
  if (auto duplicate = FindDuplicateJsonKey(text)) {
    return DuplicateKeyError(text, *duplicate, file);
  }
  try {
    return ReadReport(j);
  } catch (const BadField& bad) {
    JsonLocator locator(text);
    return sim::Error{sim::LocateOffset(text, locator.Find(bad.path), file),
                      PathText(bad.path) + ": " + bad.message};
  } catch (const nlohmann::json::exception& e) {
    return sim::Error{{file, 1, 1}, std::string("malformed sweep report: ") + e.what()};
  }
}

}  // namespace repartsim::campaign
