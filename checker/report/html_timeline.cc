// The page of a run's timeline: the header, the SVG (rows, then the drawing in step units
// inside a group the script scales horizontally, then the labels the script places), the
// violation panel, the trace as a JSON block, and the script and style of html_assets.h.
#include "checker/report/html_timeline.h"

#include <algorithm>

#include "checker/report/html_assets.h"
#include "checker/report/html_text.h"
#include "checker/report/timeline.h"

namespace repartsim::report {

namespace {

using html::Escape;
using html::Number;

constexpr int kLabelWidthPx = 160;
constexpr int kDrawWidthPx = 1200;  // before the script fits the drawing to the window
constexpr int kAxisHeightPx = 22;
constexpr int kProcedureRowPx = 18;
constexpr int kLaneRowPx = 30;
constexpr int kTrackRowPx = 14;
constexpr int kPlotRowPx = 36;
constexpr int kSectionGapPx = 8;

std::string Indices(const std::vector<size_t>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? " " : "") + std::to_string(lines[i]);
  return out;
}

std::string Center(uint64_t step) { return std::to_string(step) + ".5"; }

class Page {
 public:
  Page(const TimelineRun& run, const report::TimelineModel& model) : run_(run), m_(model) {}

  std::string Render() {
    Rows();
    std::string out;
    size_t trace_bytes = 0;
    for (const std::string& line : run_.trace_lines) trace_bytes += line.size() + 4;
    out.reserve(rows_.size() + svg_.size() + float_.size() + trace_bytes + 65536);
    out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out +=
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n";
    out += "<title>repartsim timeline: " + Escape(run_.title) + "</title>\n<style>\n";
    out += html::kTimelineCss;
    out += "</style>\n</head>\n<body>\n";
    Header(out);
    out += html::kTimelineLegend;
    const int height = y_ + kSectionGapPx;
    out += "<div id=\"wrap\"><svg id=\"tl\" width=\"" +
           std::to_string(kLabelWidthPx + kDrawWidthPx) + "\" height=\"" + std::to_string(height) +
           "\" data-steps=\"" + std::to_string(m_.step_end) + "\" data-label=\"" +
           std::to_string(kLabelWidthPx) + "\">\n";
    out += "<defs><clipPath id=\"clip\"><rect x=\"" + std::to_string(kLabelWidthPx) +
           "\" y=\"0\" width=\"100000\" height=\"" + std::to_string(height) +
           "\"/></clipPath></defs>\n";
    out += "<g id=\"rows\">\n" + rows_ + "</g>\n";
    out += "<g clip-path=\"url(#clip)\">\n<g id=\"zoom\" transform=\"translate(" +
           std::to_string(kLabelWidthPx) + ",0) scale(" +
           Number(static_cast<double>(kDrawWidthPx) / static_cast<double>(m_.step_end), 6) +
           ",1)\">\n";
    out += svg_;
    Violations(out, height);
    ViolationLabels();
    out += "</g>\n<g id=\"float\">\n" + float_ + "</g>\n</g>\n</svg></div>\n";
    out += "<div id=\"tip\"></div>\n";
    ViolationPanel(out);
    out +=
        "<section id=\"detail\"><h2>Selected</h2><pre id=\"detail-text\">Click an event, "
        "a bar or a row of a violation.</pre></section>\n";
    out += "<script type=\"application/json\" id=\"trace-data\">";
    out += html::ScriptJsonArray(run_.trace_lines);
    out += "</script>\n<script>\n";
    out += html::kTimelineScript;
    out += "</script>\n</body>\n</html>\n";
    return out;
  }

 private:
  void Header(std::string& out) const {
    out += "<header><h1>" + Escape(run_.title) + "</h1>\n<p class=\"meta\">" + Escape(run_.path) +
           " &middot; profile " + Escape(run_.profile) + " &middot; rules " +
           Escape(run_.rules.empty() ? "-" : run_.rules) + " &middot; faults " +
           Escape(run_.faults) + "</p>\n<p class=\"meta\" id=\"summary\">" +
           Escape(run_.summary_line) + "</p>\n";
    if (!run_.end.empty()) out += "<p class=\"meta\">end: " + Escape(run_.end) + "</p>\n";
    if (!run_.expect.empty()) out += "<p class=\"meta\">expect: " + Escape(run_.expect) + "</p>\n";
    Stories(out);
    out += "</header>\n";
  }

  // The run's stories (run_story.h): what happened, before the drawing that shows it.
  void Stories(std::string& out) const {
    if (run_.stories.empty()) return;
    out += "<section id=\"stories\"><h2>What happened</h2>\n<ol>\n";
    for (const run::Story& story : run_.stories) {
      out += "<li><p class=\"story\"><b>" + Escape(story.invariants) +
             "</b>: " + Escape(story.cause) + "</p>\n<ul class=\"meta\">\n";
      for (const std::string& line : story.details) out += "<li>" + Escape(line) + "</li>\n";
      out += "</ul></li>\n";
    }
    out += "</ol></section>\n";
  }

  // A row's background and label; returns its top.
  int BeginRow(const std::string& cls, const std::string& key, const std::string& label,
               int height) {
    const int top = y_;
    rows_ += "<g class=\"" + cls + "\" data-node=\"" + Escape(key) + "\"><rect class=\"rowbg" +
             (row_count_++ % 2 ? " alt" : "") + "\" x=\"0\" y=\"" + std::to_string(top) +
             "\" width=\"100%\" height=\"" + std::to_string(height) + "\"/><text x=\"4\" y=\"" +
             std::to_string(top + height / 2 + 4) + "\">" + Escape(label) + "</text></g>\n";
    y_ += height;
    return top;
  }

  void Section(const std::string& title) {
    y_ += kSectionGapPx;
    rows_ += "<text class=\"section\" x=\"4\" y=\"" + std::to_string(y_ + 10) + "\">" +
             Escape(title) + "</text>\n";
    y_ += 14;
  }

  void SpanRect(const report::Span& s, int top, int height, const std::string& extra) {
    const uint64_t width = s.step_end - s.step_first;
    svg_ += "<rect class=\"" + s.cls + extra + "\" x=\"" + std::to_string(s.step_first) +
            "\" y=\"" + std::to_string(top + 2) + "\" width=\"" + std::to_string(width) +
            "\" height=\"" + std::to_string(height - 4) + "\" data-i=\"" + Indices(s.lines) + "\"" +
            (extra == " bar" ? " data-state=\"" + Escape(s.label) + "\"" : "") + "/>\n";
    float_ += "<text class=\"sl\" data-x=\"" + std::to_string(s.step_first) + "\" data-w=\"" +
              std::to_string(width) + "\" x=\"0\" y=\"" + std::to_string(top + height - 4) + "\">" +
              Escape(s.label) + "</text>\n";
  }

  void MarkLine(const report::Mark& mark, int top, int height) {
    svg_ += "<line class=\"mk " + mark.cls + "\" x1=\"" + Center(mark.step) + "\" x2=\"" +
            Center(mark.step) + "\" y1=\"" + std::to_string(top + 3) + "\" y2=\"" +
            std::to_string(top + height - 3) + "\" data-i=\"" + Indices(mark.lines) + "\"/>\n";
  }

  void TrackRows(const std::vector<report::Row>& rows, const std::string& cls, int height,
                 const std::string& span_extra) {
    for (const report::Row& row : rows) {
      const int top = BeginRow(cls, row.key, row.label, height);
      for (const report::Span& s : row.spans) SpanRect(s, top, height, span_extra);
      for (const report::Mark& mark : row.marks) MarkLine(mark, top, height);
    }
  }

  void Rows() {
    y_ = kAxisHeightPx;
    for (const auto& [step, time_ms] : m_.ticks) {
      svg_ += "<line class=\"grid\" x1=\"" + std::to_string(step) + "\" x2=\"" +
              std::to_string(step) + "\" y1=\"" + std::to_string(kAxisHeightPx - 4) +
              "\" y2=\"100000\"/>\n";
      float_ += "<text class=\"tick\" data-x=\"" + std::to_string(step) + "\" x=\"0\" y=\"12\">" +
                std::to_string(time_ms) + " ms</text>\n";
    }
    rows_ += "<text class=\"section\" x=\"4\" y=\"12\">virtual time (x: step)</text>\n";
    Section("procedures (GreptimeDB states)");
    TrackRows(m_.procedures, "proc", kProcedureRowPx, " bar");
    Section("nodes and messages");
    std::vector<int> lane_top;
    for (const report::Row& lane : m_.lanes) {
      lane_top.push_back(BeginRow("lane", lane.key, lane.label, kLaneRowPx));
    }
    for (const report::Arrow& a : m_.arrows) Arrow(a, lane_top);
    for (size_t i = 0; i < m_.lanes.size(); ++i) {
      for (const report::Span& s : m_.lanes[i].spans) SpanRect(s, lane_top[i], kLaneRowPx, "");
      for (const report::Mark& mark : m_.lanes[i].marks) MarkLine(mark, lane_top[i], kLaneRowPx);
    }
    Section("regions (role on each datanode)");
    TrackRows(m_.regions, "region", kTrackRowPx, "");
    Section("cached routes");
    TrackRows(m_.routes, "route", kTrackRowPx, "");
    Section("writes");
    for (const report::Series& s : m_.plots) Plot(s);
  }

  void Arrow(const report::Arrow& a, const std::vector<int>& lane_top) {
    const int y_from = lane_top[a.lane_from] + kLaneRowPx / 2;
    std::string d = "M" + Center(a.step_from) + " " + std::to_string(y_from);
    if (a.step_held > a.step_from) d += "H" + Center(a.step_held);
    if (a.lane_to >= 0) {
      d += "L" + Center(a.step_to) + " " + std::to_string(lane_top[a.lane_to] + kLaneRowPx / 2);
    } else {
      d += "L" + Center(a.step_to) + " " + std::to_string(y_from + kLaneRowPx / 2 - 2);
    }
    svg_ += "<path class=\"" + a.cls + "\" d=\"" + d + "\" data-i=\"" + Indices(a.lines) + "\"/>\n";
  }

  void Plot(const report::Series& s) {
    const int top =
        BeginRow("plot", s.cls, s.label + " (max " + std::to_string(s.max) + ")", kPlotRowPx);
    const int bottom = top + kPlotRowPx - 3;
    const double scale = s.max > 0 ? static_cast<double>(kPlotRowPx - 8) / s.max : 0;
    std::string d = "M0 " + std::to_string(bottom);
    for (const auto& [step, value] : s.points) {
      d += "H" + Center(step) + "V" + Number(bottom - scale * static_cast<double>(value), 2);
    }
    d += "H" + std::to_string(m_.step_end);
    svg_ += "<path class=\"pl " + s.cls + "\" d=\"" + d + "\"/>\n";
  }

  void Violations(std::string& out, int height) const {
    for (size_t i = 0; i < m_.violations.size(); ++i) {
      const report::ViolationMark& v = m_.violations[i];
      out += "<line class=\"vl\" id=\"vmark-" + std::to_string(i) + "\" data-step=\"" +
             std::to_string(v.step) + "\" data-v=\"" + std::to_string(i) + "\" x1=\"" +
             Center(v.step) + "\" x2=\"" + Center(v.step) + "\" y1=\"" +
             std::to_string(kAxisHeightPx) + "\" y2=\"" + std::to_string(height) + "\" data-i=\"" +
             Indices(v.lines) + "\"/>\n";
    }
  }

  // Each violation's invariant on the axis, under the time ticks, at its mark; in step order,
  // so that the page hides a label that would overlap the one before it.
  void ViolationLabels() {
    std::vector<const report::ViolationMark*> by_step;
    for (const report::ViolationMark& v : m_.violations) by_step.push_back(&v);
    std::stable_sort(by_step.begin(), by_step.end(),
                     [](const auto* a, const auto* b) { return a->step < b->step; });
    for (const report::ViolationMark* mark : by_step) {
      const report::ViolationMark& v = *mark;
      float_ += "<text class=\"vlabel\" data-x=\"" + std::to_string(v.step) + "\" x=\"0\" y=\"" +
                std::to_string(kAxisHeightPx - 1) + "\">" + Escape(v.invariant) + "</text>\n";
    }
  }

  void ViolationPanel(std::string& out) const {
    out += "<section id=\"violations\"><h2>Violations (" + std::to_string(m_.violations.size()) +
           ")</h2>\n";
    for (size_t i = 0; i < m_.violations.size(); ++i) {
      const report::ViolationMark& v = m_.violations[i];
      out += "<div class=\"viol\" id=\"viol-" + std::to_string(i) + "\" data-step=\"" +
             std::to_string(v.step) + "\"><h3><a href=\"#vmark-" + std::to_string(i) +
             "\" class=\"goto\" data-step=\"" + std::to_string(v.step) + "\">" +
             Escape(v.invariant) + " at step " + std::to_string(v.step) +
             " (t=" + std::to_string(v.time_ms) + " ms)</a></h3>\n<p>" + Escape(v.message) +
             "</p>\n";
      for (const std::string& region : v.regions) {
        out += "<p class=\"meta\">region " + Escape(region) + "</p>\n";
      }
      if (!v.rows.empty()) out += "<ul class=\"rows\">\n";
      for (const report::LostRow& row : v.rows) {
        out += "<li class=\"lost\" data-write=\"" + Indices(row.write_lines) + "\" data-ack=\"" +
               Indices(row.ack_lines) + "\" data-loss=\"" + Indices(row.loss_lines) + "\"" +
               (v.query_lines.empty() ? "" : " data-query=\"" + Indices(v.query_lines) + "\"") +
               ">" + Escape(row.text) + "</li>\n";
      }
      if (!v.rows.empty()) out += "</ul>\n";
      if (!v.notes.empty()) {
        out += "<details><summary>notes (" + std::to_string(v.notes.size()) + ")</summary><ul>\n";
        for (const std::string& note : v.notes) out += "<li>" + Escape(note) + "</li>\n";
        out += "</ul></details>\n";
      }
      out += "</div>\n";
    }
    out += "</section>\n";
  }

  const TimelineRun& run_;
  const report::TimelineModel& m_;
  std::string rows_, svg_, float_;
  int y_ = 0;
  size_t row_count_ = 0;
};

}  // namespace

std::vector<std::string> TimelineNodeNames(uint32_t datanode_count, uint32_t frontend_count) {
  std::vector<std::string> names = {"metasrv"};
  for (uint32_t i = 1; i <= datanode_count; ++i) names.push_back("dn" + std::to_string(i));
  for (uint32_t i = 1; i <= frontend_count; ++i) names.push_back("fe" + std::to_string(i));
  return names;
}

TimelineRun MakeTimelineRun(const scenario::Scenario& s, const run::RunReport& r) {
  TimelineRun run;
  run.title = r.scenario;
  run.path = r.path;
  run.profile = r.profile;
  run.rules = r.rules;
  run.faults = r.faults;
  run.summary_line = r.SummaryLine();
  if (auto e = s.ExpectationFor(r.profile, r.rules)) {
    run.expect = e->ToString() + (r.Meets(*e) ? " -> met" : " -> NOT met");
  }
  run.end = r.end_reason + " at t=" + std::to_string(r.time_ms) + " ms";
  run.node_names = TimelineNodeNames(s.datanode_count, s.frontend_count);
  run.trace_lines = r.trace_lines;
  run.violations = r.violations;
  run.stories = r.stories;
  return run;
}

std::string RenderTimelineHtml(const TimelineRun& run) {
  const report::TimelineModel model =
      report::BuildTimelineModel(run.trace_lines, run.node_names, run.violations);
  return Page(run, model).Render();
}

}  // namespace repartsim::report
