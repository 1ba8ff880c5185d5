#include "checker/report/sweep_text.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <map>

#include "checker/report/html_text.h"
#include "sim/assert.h"
#include "sim/utf8.h"

namespace repartsim::report {

namespace {

// printf into `out`: the summary is a table of padded columns.
__attribute__((format(printf, 2, 3))) void Appendf(std::string& out, const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  REPARTSIM_ASSERT(n >= 0);
  const size_t at = out.size();
  out.resize(at + static_cast<size_t>(n) + 1);
  std::vsnprintf(out.data() + at, static_cast<size_t>(n) + 1, format, again);
  va_end(again);
  out.resize(at + static_cast<size_t>(n));
}

}  // namespace

namespace {

std::string RowLabel(const campaign::SweepScenario& s) {
  return s.name + " (" + s.path + (s.rules.empty() ? "" : ", rules " + s.rules) + ")";
}

}  // namespace

std::string SweepJunit(const campaign::SweepReport& report) {
  size_t failures = 0, skipped = 0;
  for (const campaign::SweepScenario& s : report.scenarios) {
    const campaign::ScenarioTally& t = report.tallies.at(s.Key());
    failures += !t.met;
    skipped += t.met && (t.runs == 0 || t.capped > 0);
  }
  const std::string counts = " tests=\"" + std::to_string(report.scenarios.size()) +
                             "\" failures=\"" + std::to_string(failures) + "\" skipped=\"" +
                             std::to_string(skipped) + "\" time=\"" +
                             std::to_string(static_cast<double>(report.wall_ms) / 1000.0) + "\"";
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites name=\"repartsim sweep\"" + counts + ">\n";
  xml += "  <testsuite name=\"scenarios\"" + counts + ">\n";
  // A row's time: the wall time of its runs, summed (workers run rows side by side).
  std::map<std::string, int64_t> row_wall_ms;
  for (const campaign::SweepRun& run : report.runs) row_wall_ms[run.Key()] += run.wall_ms;
  for (const campaign::SweepScenario& s : report.scenarios) {
    const campaign::ScenarioTally& t = report.tallies.at(s.Key());
    xml += "    <testcase classname=\"" + html::Escape(s.profile) + "\" name=\"" +
           html::Escape(RowLabel(s)) + "\" time=\"" +
           std::to_string(static_cast<double>(row_wall_ms[s.Key()]) / 1000.0) + "\">\n";
    if (!t.met) {
      std::string body;
      for (const campaign::SweepGroup& g : report.groups) {
        if (g.key != s.Key()) continue;
        body += "[" + g.status + "] " + g.invariant + " x" + std::to_string(g.count) + ": " +
                g.message + "\n  replay: " +
                campaign::ReproCommand(g.path, g.fastest_seed, g.profile, g.rules) + "\n";
      }
      xml += "      <failure message=\"" + html::Escape(t.verdict + "; expected " + s.expect) +
             "\">" + html::Escape(body) + "</failure>\n";
    } else if (t.runs == 0) {
      xml += "      <skipped message=\"" + html::Escape(t.verdict) + "\"/>\n";
    } else if (t.capped > 0) {  // not fully judged: liveness of those runs untested
      xml += "      <skipped message=\"" +
             html::Escape(std::to_string(t.capped) + " of " + std::to_string(t.runs) +
                          " runs capped at limits.steps_max before their liveness phase ended "
                          "(liveness not judged); " +
                          t.verdict) +
             "\"/>\n";
    }
    xml += "      <system-out>" +
           html::Escape(
               "runs=" + std::to_string(t.runs) + " pass=" + std::to_string(t.pass) +
               " safety=" + std::to_string(t.safety) + " liveness=" + std::to_string(t.liveness) +
               " anomalies=" + std::to_string(t.anomalies) + " unexpected=" +
               std::to_string(t.unexpected) + " capped=" + std::to_string(t.capped) +
               " skipped=" + std::to_string(t.skipped) + " unrun=" + std::to_string(t.unrun)) +
           "</system-out>\n    </testcase>\n";
  }
  xml += "  </testsuite>\n</testsuites>\n";
  return xml;
}

namespace {

// The notes, the shard remark and the closing totals line of a summary.
void AppendNotesAndTotals(const campaign::SweepReport& r, std::string& out) {
  uint64_t rows_passed = 0, rows_failed = 0, rows_skipped = 0;
  uint64_t runs = 0, skipped = 0, unrun = 0, unexpected = 0, capped = 0;
  for (const campaign::SweepScenario& s : r.scenarios) {
    const campaign::ScenarioTally& t = r.tallies.at(s.Key());
    if (!t.met) {
      ++rows_failed;
    } else if (t.runs == 0) {
      ++rows_skipped;
    } else {
      ++rows_passed;
    }
    runs += t.runs;
    skipped += t.skipped;
    unrun += t.unrun;
    unexpected += t.unexpected;
    capped += t.capped;
  }
  for (const std::string& note : r.notes) Appendf(out, "note: %s\n", note.c_str());
  if (!r.complete) {
    Appendf(out, "shard %s: expected violations not found here are judged by merge\n",
            r.shard.c_str());
  }
  Appendf(out,
          "== %llu passed, %llu failed, %llu skipped (scenario rows); %llu runs, %llu with "
          "unexpected invariants, %llu capped, %llu skipped, %llu unrun; %.1f s%s ==\n",
          (unsigned long long)rows_passed, (unsigned long long)rows_failed,
          (unsigned long long)rows_skipped, (unsigned long long)runs,
          (unsigned long long)unexpected, (unsigned long long)capped, (unsigned long long)skipped,
          (unsigned long long)unrun, static_cast<double>(r.wall_ms) / 1000.0,
          r.interrupted ? "; INTERRUPTED" : "");
}

}  // namespace

std::string SweepTotalsText(const campaign::SweepReport& report) {
  std::string out;
  for (const campaign::SweepScenario& s : report.scenarios) {
    const campaign::ScenarioTally& t = report.tallies.at(s.Key());
    if (!t.met) {
      Appendf(out, "NOT MET %s (%s, %s): %s\n", sim::VisibleText(s.name).c_str(),
              sim::VisibleText(s.path).c_str(), s.profile.c_str(), t.verdict.c_str());
    }
  }
  AppendNotesAndTotals(report, out);
  return out;
}

namespace {

// The table of `rows` (a header and one line each).
void AppendTable(const campaign::SweepReport& report,
                 const std::vector<const campaign::SweepScenario*>& rows, std::string& out) {
  REPARTSIM_ASSERT(!rows.empty());
  size_t name_w = 8, expect_w = 6, rules_w = 0;
  for (const campaign::SweepScenario* s : rows) {
    name_w = std::max(name_w, sim::VisibleText(s->name).size());
    expect_w = std::max(expect_w, s->expect.size() + (s->tolerate.empty() ? 0 : 1));
    rules_w = std::max(rules_w, s->rules.size());
  }
  const int nw = static_cast<int>(name_w), ew = static_cast<int>(expect_w);
  const int rw = rules_w == 0 ? 0 : static_cast<int>(std::max<size_t>(rules_w, 5));
  Appendf(out, "%-*s %-9s ", nw, "scenario", "profile");
  if (rw > 0) Appendf(out, "%-*s ", rw, "rules");
  Appendf(out, "%-*s %5s %5s %6s %5s %5s %5s %5s  %s\n", ew, "expect", "runs", "pass", "safety",
          "live", "anom", "unexp", "skip", "result");
  bool tolerates = false;
  for (const campaign::SweepScenario* s : rows) {
    const campaign::ScenarioTally& t = report.tallies.at(s->Key());
    Appendf(out, "%-*s %-9s ", nw, sim::VisibleText(s->name).c_str(), s->profile.c_str());
    if (rw > 0) Appendf(out, "%-*s ", rw, s->rules.empty() ? "-" : s->rules.c_str());
    const std::string expect = s->expect + (s->tolerate.empty() ? "" : "+");
    Appendf(out, "%-*s %5llu %5llu %6llu %5llu %5llu %5llu %5llu  %s\n", ew, expect.c_str(),
            (unsigned long long)t.runs, (unsigned long long)t.pass, (unsigned long long)t.safety,
            (unsigned long long)t.liveness, (unsigned long long)t.anomalies,
            (unsigned long long)t.unexpected, (unsigned long long)(t.skipped + t.unrun),
            t.verdict.c_str());
    tolerates = tolerates || !s->tolerate.empty();
  }
  if (tolerates) Appendf(out, "(expect+: the scenario also tolerates the invariants it lists)\n");
}

bool Hidden(const campaign::SweepGroup& g) {
  return g.status == "expected" || g.status == "tolerated";
}

}  // namespace

std::string SweepSummaryText(const campaign::SweepReport& report, bool verbose,
                             const GroupStories& stories) {
  REPARTSIM_ASSERT(report.tallies.size() >= report.scenarios.size() || report.runs.empty());
  std::string out;
  std::vector<const campaign::SweepScenario*> rows;
  size_t met = 0;
  for (const campaign::SweepScenario& s : report.scenarios) {
    const bool row_met = report.tallies.at(s.Key()).met;
    met += row_met;
    if (verbose || !row_met) rows.push_back(&s);
  }
  if (!rows.empty()) AppendTable(report, rows, out);
  size_t expected = 0, tolerated = 0, listed = 0;
  std::vector<bool> told(report.groups.size(), false);  // printed with an earlier group
  for (size_t i = 0; i < report.groups.size(); ++i) {
    const campaign::SweepGroup& g = report.groups[i];
    expected += g.status == "expected";
    tolerated += g.status == "tolerated";
    if ((!verbose && Hidden(g)) || told[i]) continue;
    // The other groups of the same failing runs: one row, status, fastest seed and count.
    std::string invariants = g.invariant;
    for (size_t j = i + 1; j < report.groups.size(); ++j) {
      const campaign::SweepGroup& h = report.groups[j];
      if (told[j] || (!verbose && Hidden(h)) || h.key != g.key || h.status != g.status ||
          h.fastest_seed != g.fastest_seed || h.count != g.count) {
        continue;
      }
      told[j] = true;
      if (invariants.find(h.invariant) == std::string::npos) invariants += ", " + h.invariant;
    }
    if (listed++ == 0) Appendf(out, "\nfailure groups (fastest failing seed of each):\n");
    const std::string repro = campaign::ReproCommand(g.path, g.fastest_seed, g.profile, g.rules);
    Appendf(out, "  [%s] %s %s x%llu: %s\n", g.status.c_str(), sim::VisibleText(g.name).c_str(),
            invariants.c_str(), (unsigned long long)g.count, g.message.c_str());
    const auto story = stories.find(repro);
    if (story != stories.end()) Appendf(out, "    story: %s\n", story->second.c_str());
    if (!g.fastest_shape.empty()) Appendf(out, "    shape: %s\n", g.fastest_shape.c_str());
    Appendf(out, "    %s\n", repro.c_str());
  }
  if (!verbose) {
    Appendf(out,
            "%zu of %zu scenario rows met their expectations; %zu expected and %zu tolerated "
            "failure groups%s\n",
            met, report.scenarios.size(), expected, tolerated,
            expected + tolerated + met > 0 ? " (--verbose lists every row and group)" : "");
  }
  Appendf(out, "determinism re-check: %llu runs, %zu mismatches\n",
          (unsigned long long)report.determinism_checked, report.determinism_mismatches.size());
  for (const std::string& m : report.determinism_mismatches) Appendf(out, "  %s\n", m.c_str());
  AppendNotesAndTotals(report, out);
  return out;
}

std::string SweepProgressLine(size_t done, size_t total, size_t unexpected, int64_t ms) {
  REPARTSIM_ASSERT(done <= total);
  constexpr size_t kWidth = 30;
  const size_t filled = total == 0 ? kWidth : done * kWidth / total;
  char rate[32];
  std::snprintf(rate, sizeof rate, "%.1f",
                static_cast<double>(done) * 1000.0 / static_cast<double>(std::max<int64_t>(1, ms)));
  const auto clock = [](int64_t t_ms) {
    char text[32];
    std::snprintf(text, sizeof text, "%lld:%02lld", static_cast<long long>(t_ms / 60000),
                  static_cast<long long>(t_ms / 1000 % 60));
    return std::string(text);
  };
  const int64_t left_ms =
      done == 0 ? 0 : ms / static_cast<int64_t>(done) * static_cast<int64_t>(total - done);
  return "[" + std::string(filled, '#') + std::string(kWidth - filled, ' ') + "] " +
         std::to_string(done) + "/" + std::to_string(total) + " runs, " +
         std::to_string(unexpected) + " unexpected, " + rate + " runs/s, " + clock(ms) +
         " elapsed" + (done == 0 || done == total ? "" : ", about " + clock(left_ms) + " left") +
         " ";
}

}  // namespace repartsim::report
