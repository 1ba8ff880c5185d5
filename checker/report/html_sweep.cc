#include "checker/report/html_sweep.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "checker/campaign/output_files.h"
#include "checker/report/html_assets.h"
#include "checker/report/html_text.h"
#include "checker/report/html_timeline.h"
#include "sim/assert.h"

namespace repartsim::report {

using html::Escape;

std::string SweepTimelinePath(const std::string& html_path, size_t index) {
  const std::string suffix = "-g" + std::to_string(index + 1) + ".html";
  if (html_path.size() > 5 && html_path.ends_with(".html")) {
    return html_path.substr(0, html_path.size() - 5) + suffix;
  }
  return html_path + suffix;
}

namespace {

std::string Cell(uint64_t n) { return "<td>" + std::to_string(n) + "</td>"; }

}  // namespace

std::string RenderSweepHtml(const campaign::SweepReport& report,
                            const std::vector<std::string>& timelines) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'\">\n<title>repartsim sweep</title>\n<style>\n";
  out += html::kSweepCss;
  out += "</style>\n</head>\n<body>\n<h1>repartsim sweep</h1>\n<p>seeds " + Escape(report.seeds) +
         ", shard " + Escape(report.shard) + ", rules " +
         Escape(report.rules.empty() ? "-" : report.rules) + (report.raw ? ", raw" : "") +
         ", binary " + Escape(report.binary_version) + "</p>\n";
  out +=
      "<h2>Scenarios</h2>\n<table id=\"scenarios\">\n<tr><th>scenario</th><th>profile</th>"
      "<th>rules</th><th>expect</th><th>runs</th><th>pass</th><th>safety</th><th>liveness</th>"
      "<th>anomalies</th><th>unexpected</th><th>skipped</th><th>result</th></tr>\n";
  for (const campaign::SweepScenario& s : report.scenarios) {
    const campaign::ScenarioTally& t = report.tallies.at(s.Key());
    std::string expect = s.expect;
    for (size_t i = 0; i < s.tolerate.size(); ++i) {
      expect += (i == 0 ? " (tolerates " : ", ") + s.tolerate[i];
    }
    if (!s.tolerate.empty()) expect += ")";
    out += "<tr><td title=\"" + Escape(s.path) + "\">" + Escape(s.name) + "</td><td>" +
           Escape(s.profile) + "</td><td>" + Escape(s.rules.empty() ? "-" : s.rules) + "</td><td>" +
           Escape(expect) + "</td>" + Cell(t.runs) + Cell(t.pass) + Cell(t.safety) +
           Cell(t.liveness) + Cell(t.anomalies) + Cell(t.unexpected) + Cell(t.skipped + t.unrun) +
           "<td class=\"" + (t.met ? "ok" : "bad") + "\">" + Escape(t.verdict) + "</td></tr>\n";
  }
  out += "</table>\n<h2>Failure groups (" + std::to_string(report.groups.size()) + ")</h2>\n";
  out +=
      "<table id=\"groups\">\n<tr><th>status</th><th>scenario</th><th>profile</th>"
      "<th>invariant</th><th>runs</th><th>signature</th><th>fastest seed</th>"
      "<th>timeline</th><th>repro</th></tr>\n";
  for (size_t i = 0; i < report.groups.size(); ++i) {
    const campaign::SweepGroup& g = report.groups[i];
    const std::string page = i < timelines.size() ? timelines[i] : "";
    const std::string link =
        page.empty() ? "-"
                     : "<a href=\"" + Escape(std::filesystem::path(page).filename().string()) +
                           "\">seed " + std::to_string(g.fastest_seed) + "</a>";
    out += "<tr><td class=\"" + std::string(g.status == "UNEXPECTED" ? "bad" : "ok") + "\">" +
           Escape(g.status) + "</td><td>" + Escape(g.name) + "</td><td>" + Escape(g.profile) +
           "</td><td>" + Escape(g.invariant) + "</td>" + Cell(g.count) + "<td>" +
           Escape(g.signature) + "</td><td>" + std::to_string(g.fastest_seed) + " (" +
           std::to_string(g.fastest_steps) + " steps)</td><td>" + link + "</td><td><code>" +
           Escape(campaign::ReproCommand(g.path, g.fastest_seed, g.profile, g.rules)) +
           "</code></td></tr>\n";
  }
  out += "</table>\n";
  for (const std::string& note : report.notes) out += "<p>note: " + Escape(note) + "</p>\n";
  out += "</body>\n</html>\n";
  return out;
}

std::vector<std::optional<std::string>> GroupTimelineHtml(const campaign::SweepPlan& plan,
                                                          const campaign::SweepReport& report) {
  std::vector<std::optional<std::string>> pages;
  for (const campaign::SweepGroup& g : report.groups) {
    const scenario::Scenario* s = nullptr;
    for (const scenario::Scenario& candidate : plan.scenarios()) {
      if (candidate.path == g.path) s = &candidate;
    }
    pages.emplace_back();
    // An internal-error run would end this process as it ended its worker: no timeline.
    if (s == nullptr || g.invariant == campaign::kInternalErrorName) continue;
    run::RunConfig config = plan.base();
    config.seed = g.fastest_seed;
    config.profile = g.profile;
    config.keep_trace = true;
    auto run = run::RunScenario(*s, config);
    REPARTSIM_ASSERT_MSG(run.ok(), "a planned scenario failed to run");
    pages.back() = RenderTimelineHtml(MakeTimelineRun(*s, run.value()));
  }
  REPARTSIM_ASSERT(pages.size() == report.groups.size());
  return pages;
}

bool IsSweepTimelinePath(const std::string& html_path, const std::string& path) {
  const std::string first = SweepTimelinePath(html_path, 0);   // "<stem>-g1.html"
  const std::string stem = first.substr(0, first.size() - 6);  // "<stem>-g"
  if (path.size() <= stem.size() + 5 || path.rfind(stem, 0) != 0 || !path.ends_with(".html")) {
    return false;
  }
  const std::string digits = path.substr(stem.size(), path.size() - stem.size() - 5);
  return digits[0] != '0' &&
         std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

namespace {

// True when `path` does not exist or holds a timeline page this tool wrote (its title).
bool MayReplaceTimeline(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return true;
  std::ifstream in(path, std::ios::binary);
  std::string head(512, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head.rfind("<!DOCTYPE html>", 0) == 0 &&
         head.find("<title>repartsim timeline: ") != std::string::npos;
}

}  // namespace

std::vector<sim::Error> WriteSweepHtml(const std::string& html_path,
                                       const campaign::SweepPlan& plan,
                                       const campaign::SweepReport& report) {
  REPARTSIM_ASSERT(!html_path.empty());
  const std::vector<std::optional<std::string>> pages = GroupTimelineHtml(plan, report);
  REPARTSIM_ASSERT(pages.size() == report.groups.size());
  std::vector<sim::Error> errors;
  std::vector<std::string> timelines(pages.size());
  for (size_t i = 0; i < pages.size(); ++i) {
    if (!pages[i]) continue;
    const std::string path = SweepTimelinePath(html_path, i);
    if (!MayReplaceTimeline(campaign::OutputTarget(path))) {
      errors.push_back(sim::Error{{path, 0, 0},
                                  "cannot write the report: the file exists and is not a "
                                  "repartsim timeline page; move it or choose another --html"});
      continue;
    }
    sim::Status st = campaign::WriteTextFile(path, *pages[i]);
    if (!st.ok()) {
      errors.push_back(st.error());
      continue;
    }
    timelines[i] = path;  // the summary links only the pages that were written
  }
  sim::Status st = campaign::WriteTextFile(html_path, RenderSweepHtml(report, timelines));
  if (!st.ok()) errors.push_back(st.error());
  return errors;
}

}  // namespace repartsim::report
