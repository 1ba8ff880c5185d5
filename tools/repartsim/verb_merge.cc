// `repartsim merge REPORT.json... [--json FILE] [--junit FILE]`: joins the --json reports of
// sweep shards (or of several sweeps, e.g. one per profile) into one, in any order, and
// re-aggregates the verdicts and failure groups over all runs. Every report is validated on
// read (SweepReport::FromJson: a located error, exit 64). Merge refuses, with exit 64:
//   - reports written by different binaries (binary.id differs);
//   - a shard given twice, or a sweep with a shard missing (reports of one sweep share a
//     sweep_id; each of its shards 0..N-1 must be present exactly once);
//   - a scenario file that changed between reports (its hash differs), the same run (row
//     and seed) in two reports, raw and non-raw reports together.
// The merged report is complete (expected violations are judged over every shard) and can
// itself be merged again with reports of other sweeps. Prints the summary; exits like sweep.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "sim/fingerprint.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_run.h"
#include "tools/repartsim/report_sweep.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

struct MergeArgs {
  std::vector<std::string> reports;
  std::string json;
  std::string junit;
  bool quiet = false;
};

struct Loaded {
  std::string path;
  std::string text;
  SweepReport report;
};

sim::Result<Loaded> LoadReport(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return sim::Error{{path, 0, 0}, std::string("cannot read report: ") + std::strerror(errno)};
  }
  Loaded loaded;
  loaded.path = path;
  loaded.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  auto r = SweepReport::FromJson(loaded.text, path);
  if (!r.ok()) return r.error();
  loaded.report = std::move(r).value();
  return loaded;
}

sim::Error At(const Loaded& l, const std::vector<std::string>& field, std::string message) {
  return sim::Error{LocateReportField(l.text, field, l.path), std::move(message)};
}

uint32_t ShardIndex(const std::string& shard) { return static_cast<uint32_t>(std::stoul(shard)); }
uint32_t ShardCount(const std::string& shard) {
  return static_cast<uint32_t>(std::stoul(shard.substr(shard.find('/') + 1)));
}

int Merge(const MergeArgs& a) {
  const std::vector<std::string> args = CommandLineArgs();
  if (a.reports.empty()) {
    return ReportInputError({{"<command line>", 1, 1}, "merge needs at least one REPORT.json"});
  }
  for (const std::string* out : {&a.json, &a.junit}) {
    if (out->empty()) continue;
    sim::Status st = CheckOutputPath(*out, args);
    if (!st.ok()) return ReportInputError(st.error());
  }
  std::vector<Loaded> parts;
  for (const std::string& path : a.reports) {
    auto r = LoadReport(path);
    if (!r.ok()) return ReportInputError(r.error());
    parts.push_back(std::move(r).value());
  }
  const Loaded& first = parts.front();
  // One binary, one raw mode.
  for (const Loaded& p : parts) {
    if (p.report.binary_id != first.report.binary_id) {
      return ReportInputError(At(
          p, {"binary", "id"},
          "written by repartsim " + p.report.binary_version + " (build " + p.report.binary_id +
              "), but " + first.path + " by repartsim " + first.report.binary_version + " (build " +
              first.report.binary_id + "): merge reports of one binary (re-run the sweep)"));
    }
    if (p.report.raw != first.report.raw) {
      return ReportInputError(At(p, {"raw"},
                                 "raw and non-raw reports cannot be merged (" + first.path +
                                     " has raw=" + (first.report.raw ? "true" : "false") + ")"));
    }
  }
  // Every shard of every sweep exactly once.
  std::map<std::string, std::map<uint32_t, const Loaded*>> sweeps;   // sweep_id -> index -> part
  std::map<std::string, std::pair<uint32_t, const Loaded*>> counts;  // sweep_id -> N, first
  for (const Loaded& p : parts) {
    const uint32_t index = ShardIndex(p.report.shard);
    const uint32_t count = ShardCount(p.report.shard);
    auto [c, fresh] = counts.try_emplace(p.report.sweep_id, count, &p);
    if (!fresh && c->second.first != count) {
      return ReportInputError(At(p, {"shard"},
                                 "shard " + p.report.shard + " of sweep " + p.report.sweep_id +
                                     ", but " + c->second.second->path + " is shard " +
                                     c->second.second->report.shard));
    }
    auto [it, inserted] = sweeps[p.report.sweep_id].try_emplace(index, &p);
    if (!inserted) {
      return ReportInputError(At(p, {"shard"},
                                 "shard " + p.report.shard + " of sweep " + p.report.sweep_id +
                                     " is given twice (also " + it->second->path + ")"));
    }
  }
  for (const auto& [id, shards] : sweeps) {
    const uint32_t count = counts.at(id).first;
    std::string missing, have;
    for (uint32_t i = 0; i < count; ++i) {
      if (!shards.count(i)) {
        if (!missing.empty()) missing += ", ";
        missing += std::to_string(i) + "/" + std::to_string(count);
      }
    }
    if (missing.empty()) continue;
    for (const auto& [index, part] : shards) {
      have += (have.empty() ? "" : ", ") + part->path + " (" + part->report.shard + ")";
    }
    return ReportInputError(At(*shards.begin()->second, {"shard"},
                               "sweep " + id + " is missing shard " + missing + " (have " + have +
                                   "); merge needs every shard exactly once"));
  }

  SweepReport merged;
  merged.binary_version = first.report.binary_version;
  merged.binary_id = first.report.binary_id;
  merged.raw = first.report.raw;
  merged.complete = true;
  merged.shard = "0/1";
  std::map<std::string, std::pair<std::string, const Loaded*>> row_hash;  // key -> hash, part
  std::map<std::pair<std::string, uint64_t>, const Loaded*> seen_runs;
  std::set<std::string> seeds, rules;
  for (const Loaded& p : parts) {
    const SweepReport& part = p.report;
    seeds.insert(part.seeds);
    rules.insert(part.rules);
    for (size_t i = 0; i < part.scenarios.size(); ++i) {
      const SweepScenario& s = part.scenarios[i];
      auto [it, fresh] = row_hash.try_emplace(s.Key(), s.hash, &p);
      if (fresh) {
        merged.scenarios.push_back(s);
      } else if (it->second.first != s.hash) {
        return ReportInputError(At(p, {"scenarios", std::to_string(i), "hash"},
                                   "scenario " + s.path + " has hash " + s.hash + " here but " +
                                       it->second.first + " in " + it->second.second->path +
                                       ": the file changed between the sweeps"));
      }
    }
    for (size_t i = 0; i < part.runs.size(); ++i) {
      const SweepRun& run = part.runs[i];
      auto [it, fresh] = seen_runs.try_emplace({run.Key(), run.seed}, &p);
      if (!fresh) {
        return ReportInputError(At(p, {"runs", std::to_string(i)},
                                   "run " + run.path + " (profile " + run.profile +
                                       (run.rules.empty() ? "" : ", rules " + run.rules) +
                                       ") seed " + std::to_string(run.seed) + " is also in " +
                                       it->second->path + ": overlapping sweeps or shards"));
      }
      merged.runs.push_back(run);
    }
    merged.interrupted = merged.interrupted || part.interrupted;
    merged.wall_ms += part.wall_ms;
    for (const std::string& note : part.notes) merged.notes.push_back(p.path + ": " + note);
    merged.determinism_checked += part.determinism_checked;
    for (const std::string& m : part.determinism_mismatches)
      merged.determinism_mismatches.push_back(m);
  }
  for (const std::string& s : seeds) merged.seeds += (merged.seeds.empty() ? "" : "+") + s;
  for (const std::string& r : rules) merged.rules += (merged.rules.empty() ? "" : "+") + r;
  if (sweeps.size() == 1) {
    merged.sweep_id = sweeps.begin()->first;
  } else {
    sim::Hasher h;
    for (const auto& [id, shards] : sweeps) h.Add(std::string_view(id));
    merged.sweep_id = Hex64(h.Finish());
  }
  merged.Aggregate();
  std::FILE* out = a.json == "-" || a.junit == "-" ? stderr : stdout;
  std::fprintf(out, "merged %zu reports (%zu sweeps, every shard once): %zu runs\n", parts.size(),
               sweeps.size(), merged.runs.size());
  if (a.quiet) {
    PrintSweepTotals(merged, out);
  } else {
    PrintSweepSummary(merged, out);
  }
  const int verdict = merged.ExitCode();
  if (!a.json.empty()) {
    sim::Status st = WriteTextFile(a.json, merged.ToJson().dump(1) + "\n");
    if (!st.ok()) return ReportWriteError(st.error(), verdict);
  }
  if (!a.junit.empty()) {
    sim::Status st = WriteTextFile(a.junit, SweepJunit(merged));
    if (!st.ok()) return ReportWriteError(st.error(), verdict);
  }
  return verdict;
}

}  // namespace

void AddMergeVerb(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<MergeArgs>();
  CLI::App* sub = app.add_subcommand(
      "merge", "Merge sweep --json reports (shards, profiles); check every shard is there once");
  sub->add_option("reports", a->reports, "Sweep JSON reports");
  sub->add_option("--json", a->json, "Write the merged JSON report to FILE ('-' = stdout)");
  sub->add_option("--junit", a->junit, "Write a JUnit XML report to FILE ('-' = stdout)");
  sub->add_flag("--quiet,-q", a->quiet, "Print only the unmet rows and the totals line");
  sub->footer(
      "Refuses (exit 64, located error) reports of different binaries, a missing or repeated\n"
      "shard, a scenario changed between reports, a run in two reports, a malformed report.\n"
      "Exit codes otherwise as sweep: 0 all met, 1 safety, 2 liveness, 3 nondeterminism,\n"
      "70 runs never ran (a worker died), 73 a report could not be written.");
  sub->callback([a, exit_code] { *exit_code = Merge(*a); });
}

}  // namespace repartsim::tools
