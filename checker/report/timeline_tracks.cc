#include "checker/report/timeline_tracks.h"

#include <algorithm>
#include <charconv>

namespace repartsim::report {

namespace {

uint64_t Number(std::string_view text) {
  uint64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

// "4398046511107(1024, 3)" -> (1024, 3); (0, id) for a region id without its parenthesis.
std::pair<uint64_t, uint64_t> RegionKey(std::string_view region) {
  const size_t open = region.find('(');
  const size_t comma = region.find(", ");
  if (open == std::string_view::npos || comma == std::string_view::npos || comma < open) {
    return {0, Number(region)};
  }
  return {Number(region.substr(open + 1, comma - open - 1)), Number(region.substr(comma + 2))};
}

// The first parenthesised group of `text` at or after `from`, "(host='h0', ts=2)", quotes
// respected (a string value may hold a parenthesis); "" when there is none.
std::string_view FirstGroup(std::string_view text, size_t from = 0) {
  const size_t open = text.find('(', from);
  if (open == std::string_view::npos) return {};
  bool quoted = false;
  for (size_t i = open + 1; i < text.size(); ++i) {
    if (text[i] == '\'') quoted = !quoted;
    if (!quoted && text[i] == ')') return text.substr(open, i - open + 1);
  }
  return {};
}

// The values of a rendered row "(host='h0', ts=2, v=92, a=5)" as the SQL tuple the `op insert`
// line prints, "('h0', 2, 92, 5)"; "" for an empty group.
std::string RowTuple(std::string_view group) {
  if (group.size() < 2) return "";
  const std::string_view inner = group.substr(1, group.size() - 2);
  std::string out = "(";
  bool quoted = false;
  size_t item = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    if (i < inner.size() && inner[i] == '\'') quoted = !quoted;
    if (i < inner.size() && (quoted || inner[i] != ',')) continue;
    std::string_view part = inner.substr(item, i - item);
    if (part.starts_with(" ")) part.remove_prefix(1);
    const size_t eq = part.find('=');
    if (eq != std::string_view::npos && part.find('\'') > eq) part.remove_prefix(eq + 1);
    out += (item == 0 ? "" : ", ") + std::string(part);
    item = i + 1;
  }
  return out + ")";
}

// The row tuples of an `op insert` line's values="(..), (..)" (the quoted value, escapes kept
// as the trace prints them): each parenthesised group at the top level, quotes respected.
std::vector<std::string> InsertTuples(std::string_view values) {
  std::vector<std::string> tuples;
  int depth = 0;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const char c = values[i];
    if (c == '\'') quoted = !quoted;
    if (quoted) continue;
    if (c == '(' && depth++ == 0) start = i;
    if (c == ')' && depth > 0 && --depth == 0) {
      tuples.emplace_back(values.substr(start, i - start + 1));
    }
  }
  return tuples;
}

void Push(Series& series, uint64_t step, int64_t value) {
  series.max = std::max(series.max, value);
  if (!series.points.empty() && series.points.back().first == step) {
    series.points.back().second = value;
  } else {
    series.points.emplace_back(step, value);
  }
}

void Open(Row& row, uint64_t step, std::string label, std::string cls, size_t line) {
  if (!row.spans.empty() && row.spans.back().step_end == 0) {
    row.spans.back().step_end = std::max(step, row.spans.back().step_first + 1);
  }
  if (!label.empty()) row.spans.push_back(Span{step, 0, std::move(label), std::move(cls), {line}});
}

void CloseAll(Row& row, uint64_t step_end) {
  if (!row.spans.empty() && row.spans.back().step_end == 0) {
    row.spans.back().step_end = std::max(step_end, row.spans.back().step_first + 1);
  }
}

}  // namespace

Row& Tracks::RegionRow(std::string_view region, int node) {
  const std::pair<uint64_t, uint64_t> key = RegionKey(region);
  Row& row = regions_[{key, node}];
  if (row.key.empty()) {
    const std::string where =
        node >= 0 && node < static_cast<int>(names_.size()) ? names_[node] : "?";
    row.key = std::string(region) + "@" + where;
    row.label = "region " + std::to_string(key.second) + " @" + where;
  }
  return row;
}

Row& Tracks::RouteRow(int node) {
  Row& row = routes_[node];
  if (row.key.empty()) {
    const std::string name =
        node >= 0 && node < static_cast<int>(names_.size()) ? names_[node] : "?";
    row.key = name;
    row.label = name + " route";
  }
  return row;
}

void Tracks::OnEvent(const TraceEvent& e) {
  const std::string_view k = e.kind;
  if (k.starts_with("dn.")) return OnRegion(e);
  if (k == "op" || k == "fe.write_done") return OnWrite(e);
  if (k == "fe.query_done") query_lines_[Number(DetailField(e.detail, "id"))].push_back(e.line);
  if (k == "fe.route_filled") {
    return Open(RouteRow(e.node), e.step, "v" + std::string(DetailField(e.detail, "version")), "rv",
                e.line);
  }
  if (k == "fe.invalidate") {
    Row& row = RouteRow(e.node);
    Open(row, e.step, "", "", e.line);
    row.marks.push_back(Mark{e.step, "inval", {e.line}});
  }
  if (k == "fe.invalidate_ignored" || k == "fe.fill_discarded") {
    RouteRow(e.node).marks.push_back(Mark{e.step, "bad", {e.line}});
  }
  if (k == "ms.invalidate") RouteRow(e.node).marks.push_back(Mark{e.step, "inval", {e.line}});
}

void Tracks::OnRegion(const TraceEvent& e) {
  const std::string_view k = e.kind;
  const bool op = k == "dn.region_op";
  const std::string_view region = DetailWord(e.detail, op ? 1 : 0);
  if (region.empty()) return;
  Row& row = RegionRow(region, e.node);
  const std::string_view code = DetailWord(e.detail, op ? 2 : 1);
  if ((op || k == "dn.flush") && code != "Ok") {
    return row.marks.push_back(Mark{e.step, "bad", {e.line}});
  }
  if (op) {
    const std::string_view what = DetailWord(e.detail, 0);
    if (what == "CreateRegion" || what == "ApplyStagingManifest") {
      return Open(row, e.step, "leader", "role role-leader", e.line);
    }
    if (what == "EnterStaging") return Open(row, e.step, "staging", "role role-staging", e.line);
    if (what == "DropRegion") Open(row, e.step, "", "", e.line);
    return row.marks.push_back(Mark{e.step, "rop", {e.line}});
  }
  if (k == "dn.lease_expired") {
    return Open(row, e.step, "follower", "role role-follower", e.line);
  }
  if (k == "dn.close_region") Open(row, e.step, "", "", e.line);
  row.marks.push_back(Mark{e.step, k == "dn.accepted_outside" ? "bad" : "rop", {e.line}});
}

void Tracks::OnWrite(const TraceEvent& e) {
  const uint64_t id = Number(DetailField(e.detail, "id"));
  if (e.kind == "op") {
    if (DetailWord(e.detail, 0) == "query") query_lines_[id].push_back(e.line);
    if (DetailWord(e.detail, 0) != "insert") return;
    writes_[id] = Write{static_cast<int64_t>(Number(DetailField(e.detail, "rows"))), e.line, {}};
    for (std::string& tuple : InsertTuples(DetailField(e.detail, "values"))) {
      tuple_writes_[std::move(tuple)].push_back(id);
    }
    Push(in_flight_, e.step, ++in_flight_writes_);
    return;
  }
  auto it = writes_.find(id);
  if (it == writes_.end()) return;
  const std::string_view status = DetailWord(e.detail, 1);
  Push(in_flight_, e.step, --in_flight_writes_);
  if (status == "acked") {
    it->second.ack_lines.push_back(e.line);
    acked_rows_ += it->second.rows;
    Push(acked_, e.step, acked_rows_);
  } else if (status == "unknown") {
    Push(unknown_, e.step, ++unknown_writes_);
  }
}

ViolationMark Tracks::ToMark(const check::Violation& v, uint64_t step_end) const {
  ViolationMark mark;
  mark.step = std::min(v.step, step_end - 1);
  mark.time_ms = v.time_ms;
  mark.invariant = std::string(check::InvariantName(v.invariant));
  mark.message = v.message;
  mark.regions = v.regions;
  mark.notes = v.notes;
  std::map<std::string_view, size_t> index;
  auto line_index = [&](std::string_view text) -> std::optional<size_t> {
    if (index.empty()) {
      for (size_t i = 0; i < lines_.size(); ++i) index.emplace(lines_[i], i);
    }
    auto it = index.find(text);
    if (it == index.end()) return std::nullopt;
    return it->second;
  };
  for (const std::string& line : v.trace) {
    if (auto i = line_index(line)) mark.lines.push_back(*i);
  }
  // The report's note "query N from feK ..." names the query that saw the violation.
  for (const std::string& note : v.notes) {
    if (!note.starts_with("query ")) continue;
    const size_t end = note.find(' ', 6);
    auto it = query_lines_.find(Number(std::string_view(note).substr(6, end - 6)));
    if (it != query_lines_.end() && note.compare(end, 6, " from ") == 0) {
      mark.query_lines = it->second;
    }
    break;
  }
  for (const std::string& text : v.rows) {
    LostRow row;
    row.text = text;
    // The row the report names, and for a wrong value ("...; expected (...)") the row the read
    // should have returned: the writes of both, and what lost each.
    std::vector<std::string_view> groups = {FirstGroup(text)};
    if (const size_t at = text.find("; expected ("); at != std::string::npos) {
      groups.push_back(FirstGroup(text, at));
    }
    for (const std::string_view group : groups) {
      if (group.empty()) continue;
      LinkRow(group, v.notes, line_index, row);
    }
    mark.rows.push_back(std::move(row));
  }
  return mark;
}

void Tracks::LinkRow(std::string_view group, const std::vector<std::string>& notes,
                     const std::function<std::optional<size_t>(std::string_view)>& line_index,
                     LostRow& row) const {
  if (auto it = tuple_writes_.find(RowTuple(group)); it != tuple_writes_.end()) {
    for (const uint64_t id : it->second) {
      const Write& write = writes_.at(id);
      if (!row.write_lines.empty() && row.write_lines.back() == write.insert_line) continue;
      row.write_lines.push_back(write.insert_line);
      row.ack_lines.insert(row.ack_lines.end(), write.ack_lines.begin(), write.ack_lines.end());
    }
  }
  // The report's note on this row quotes the lines that lost it in backquotes.
  {
    const std::string prefix = "row " + std::string(group) + ":";
    for (const std::string& note : notes) {
      if (!note.starts_with(prefix)) continue;
      for (size_t at = note.find('`'); at != std::string::npos; at = note.find('`', at + 1)) {
        const size_t end = note.find('`', at + 1);
        if (end == std::string::npos) break;
        const auto i = line_index(std::string_view(note).substr(at + 1, end - at - 1));
        if (i &&
            std::find(row.loss_lines.begin(), row.loss_lines.end(), *i) == row.loss_lines.end()) {
          row.loss_lines.push_back(*i);
        }
        at = end;
      }
    }
  }
}

void Tracks::Finish(TimelineModel& model, const std::vector<check::Violation>& violations) {
  for (auto& [key, row] : regions_) {
    CloseAll(row, model.step_end);
    model.regions.push_back(std::move(row));
  }
  for (auto& [node, row] : routes_) {
    CloseAll(row, model.step_end);
    model.routes.push_back(std::move(row));
  }
  model.plots = {std::move(acked_), std::move(in_flight_), std::move(unknown_)};
  for (const check::Violation& v : violations)
    model.violations.push_back(ToMark(v, model.step_end));
}

}  // namespace repartsim::report
