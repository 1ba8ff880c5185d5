// The trace read into rows, arrows and marks: procedures, node lanes and messages here; the
// region, route and plot tracks and the violations in timeline_tracks.cc.
#include "checker/report/timeline.h"

#include <charconv>
#include <map>

#include "checker/report/timeline_tracks.h"

namespace repartsim::report {

namespace {

std::optional<uint64_t> ParseNumber(std::string_view text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::string_view NextWord(std::string_view text, size_t& pos) {
  const size_t start = pos;
  const size_t space = text.find(' ', pos);
  pos = space == std::string_view::npos ? text.size() : space + 1;
  return text.substr(start, (space == std::string_view::npos ? text.size() : space) - start);
}

}  // namespace

std::optional<TraceEvent> ParseTraceLine(std::string_view line, size_t index) {
  size_t pos = 0;
  const std::optional<uint64_t> step = ParseNumber(NextWord(line, pos));
  const std::optional<uint64_t> time = ParseNumber(NextWord(line, pos));
  const std::string_view node = NextWord(line, pos);
  const std::string_view kind = NextWord(line, pos);
  if (!step || !time || node.empty() || kind.empty()) return std::nullopt;
  TraceEvent e;
  e.line = index;
  e.step = *step;
  e.time_ms = static_cast<int64_t>(*time);
  if (node != "-") {
    if (node[0] != 'n') return std::nullopt;
    const std::optional<uint64_t> id = ParseNumber(node.substr(1));
    if (!id || *id > 1'000'000) return std::nullopt;
    e.node = static_cast<int>(*id);
  }
  e.kind = kind;
  e.detail = pos < line.size() ? line.substr(pos) : std::string_view();
  return e;
}

std::string_view DetailField(std::string_view detail, std::string_view key) {
  for (size_t at = 0; (at = detail.find(key, at)) != std::string_view::npos; ++at) {
    const size_t value = at + key.size();
    if ((at > 0 && detail[at - 1] != ' ') || value >= detail.size() || detail[value] != '=') {
      continue;
    }
    size_t end = value + 1;
    if (end < detail.size() && detail[end] == '"') {
      for (++end; end < detail.size() && detail[end] != '"'; ++end) {
        if (detail[end] == '\\') ++end;
      }
      end = std::min(end + 1, detail.size());
    } else {
      int depth = 0;
      for (; end < detail.size() && (depth > 0 || detail[end] != ' '); ++end) {
        depth += detail[end] == '(' ? 1 : detail[end] == ')' ? -1 : 0;
      }
    }
    return detail.substr(value + 1, end - value - 1);
  }
  return {};
}

std::string_view DetailWord(std::string_view detail, size_t n) {
  size_t pos = 0;
  for (size_t i = 0;; ++i) {
    if (pos >= detail.size()) return {};
    // A word ends at a space outside parentheses and double quotes.
    const size_t start = pos;
    int depth = 0;
    bool quoted = false;
    for (; pos < detail.size() && (quoted || depth > 0 || detail[pos] != ' '); ++pos) {
      if (detail[pos] == '"') quoted = !quoted;
      if (!quoted) depth += detail[pos] == '(' ? 1 : detail[pos] == ')' ? -1 : 0;
      if (quoted && detail[pos] == '\\') ++pos;
    }
    if (i == n) return detail.substr(start, std::min(pos, detail.size()) - start);
    ++pos;
  }
}

namespace {

// Messages in flight, by id, until their arrows are drawn.
struct Message {
  uint64_t step = 0;
  int from = -1;
  int to = -1;
  std::string group;   // CSS class of the message kind
  std::string faults;  // " delay", " dup", " held"
  uint64_t step_held = 0;
  std::vector<size_t> lines;
  bool delivered = false;
};

std::string MessageGroup(std::string_view kind) {
  if (kind == "Heartbeat" || kind == "HeartbeatReply") return "hb";
  if (kind == "WriteRequest" || kind == "WriteReply") return "wr";
  if (kind == "ScanRequest" || kind == "ScanResponse") return "sc";
  if (kind == "RegionRequest" || kind == "RegionResponse") return "rg";
  return "rt";  // route requests, replies, invalidations
}

class Builder {
 public:
  Builder(const std::vector<std::string>& lines, const std::vector<std::string>& names)
      : lines_(lines), names_(names) {
    for (size_t k = 0; k < names.size(); ++k) {
      model_.lanes.push_back(Row{names[k], names[k] + " (n" + std::to_string(k) + ")", {}, {}});
    }
    model_.lanes.push_back(Row{"client", "client", {}, {}});
  }

  TimelineModel Build(const std::vector<check::Violation>& violations) {
    Tracks tracks(lines_, names_);
    for (size_t i = 0; i < lines_.size(); ++i) {
      std::optional<TraceEvent> e = ParseTraceLine(lines_[i], i);
      if (!e) continue;
      model_.step_end = std::max(model_.step_end, e->step + 1);
      steps_.emplace_back(e->step, e->time_ms);
      OnEvent(*e);
      tracks.OnEvent(*e);
    }
    for (const check::Violation& v : violations) {
      model_.step_end = std::max(model_.step_end, v.step + 1);
    }
    for (auto& [id, row] : procedures_) {
      CloseSpan(row, model_.step_end);
      model_.procedures.push_back(std::move(row));
    }
    for (auto& [lane, down] : down_since_) {
      if (down) AddSpan(model_.lanes[lane], *down, model_.step_end, "down", "down", {});
    }
    for (auto& [id, m] : messages_) {
      if (!m.delivered) Lost(m, model_.step_end, "open");
    }
    ResolvePauses();
    Ticks();
    tracks.Finish(model_, violations);
    return std::move(model_);
  }

 private:
  int LaneOf(std::string_view name) const {
    for (size_t k = 0; k < names_.size(); ++k) {
      if (names_[k] == name) return static_cast<int>(k);
    }
    return -1;
  }
  int Lane(int node) const {
    return node >= 0 && node < static_cast<int>(names_.size()) ? node
                                                               : static_cast<int>(names_.size());
  }
  static void AddSpan(Row& row, uint64_t first, uint64_t end, std::string label, std::string cls,
                      std::vector<size_t> lines) {
    row.spans.push_back(
        Span{first, std::max(end, first + 1), std::move(label), std::move(cls), std::move(lines)});
  }
  static void CloseSpan(Row& row, uint64_t step) {
    if (!row.spans.empty() && row.spans.back().step_end == 0) {
      row.spans.back().step_end = std::max(step, row.spans.back().step_first + 1);
    }
  }
  void AddMark(int node, uint64_t step, std::string cls, size_t line) {
    model_.lanes[Lane(node)].marks.push_back(Mark{step, std::move(cls), {line}});
  }

  void OnEvent(const TraceEvent& e) {
    const std::string_view k = e.kind;
    if (k == "send" || k == "recv" || k.starts_with("net.")) return OnNet(e);
    if (k == "ms.state") return OnState(e);
    if (k == "ms.procedure" || k == "ms.submit") return OnProcedureNote(e);
    if (k == "ms.state_passed" || k == "fe.query_plan") return;  // shown by other lines
    if (k == "crash" || k == "restart") {
      const int lane = Lane(e.node);
      if (k == "crash") {
        down_since_[lane] = e.step;
      } else if (auto it = down_since_.find(lane); it != down_since_.end() && it->second) {
        AddSpan(model_.lanes[lane], *it->second, e.step, "down", "down", {e.line});
        it->second.reset();
      }
      return AddMark(e.node, e.step, std::string(k), e.line);
    }
    if (k == "op") {
      const int fe = LaneOf(DetailField(e.detail, "fe"));
      const std::string_view op = DetailWord(e.detail, 0);
      return AddMark(fe >= 0 ? fe : -1, e.step, "op op-" + std::string(op), e.line);
    }
    std::string cls = "ev";
    if (k == "crash_point") cls = "crash";
    if (k == "dn.lease_expired") cls = "lease";
    if (k == "dn.close_region") cls = "close";
    if (k == "dn.accepted_outside" || k == "fe.ddl_rejected") cls = "bad";
    if (k == "fe.write_done") cls = "wd wd-" + std::string(DetailWord(e.detail, 1));
    if (k == "fe.query_done") cls = "qd";
    if (k == "dn.region_op" || k == "dn.flush") cls = "rop";
    if (k.starts_with("fe.route") || k.starts_with("fe.invalidate") || k == "fe.fill_discarded") {
      cls = "route";
    }
    AddMark(e.node, e.step, cls, e.line);
  }

  void OnNet(const TraceEvent& e) {
    const std::string_view k = e.kind;
    const std::optional<uint64_t> id = ParseNumber(DetailField(e.detail, "id"));
    if (k == "net.pause") {
      pauses_.push_back(
          {Lane(LaneOf(DetailField(e.detail, "node"))), e.step,
           static_cast<int64_t>(ParseNumber(DetailField(e.detail, "until")).value_or(0)), e.line});
      return AddMark(LaneOf(DetailField(e.detail, "node")), e.step, "pause", e.line);
    }
    if (k == "net.reset" || k == "net.reconnect" || k == "net.lease_gap") {
      AddMark(e.node, e.step, k == "net.reconnect" ? "ev" : "fault", e.line);
      if (k != "net.lease_gap" || !id) return;
    }
    if (!id) return;
    if (k == "send") {
      Message& m = messages_[*id];
      m = Message{e.step,
                  e.node,
                  LaneOf(DetailField(e.detail, "to")),
                  MessageGroup(DetailField(e.detail, "msg")),
                  "",
                  0,
                  {e.line},
                  false};
      return;
    }
    auto it = messages_.find(*id);
    if (it == messages_.end()) return;
    Message& m = it->second;
    m.lines.push_back(e.line);
    if (k == "recv") {
      Draw(m, e.step, Lane(e.node), "");
      m.delivered = true;
    } else if (k == "net.delay") {
      m.faults += " delay";
    } else if (k == "net.duplicate") {
      m.faults += " dup";
    } else if (k == "net.rule" || k == "net.lease_gap") {
      const std::string_view action = k == "net.rule" ? DetailWord(e.detail, 0) : "hold";
      if (action == "hold") m.faults += " held";
      if (action == "delay") m.faults += " delay";
      if (k == "net.rule") m.faults += " rule";
    } else if (k == "net.release") {
      m.step_held = e.step;
    } else if (k == "net.drop" || k == "net.lost") {
      Lost(m, e.step, k == "net.drop" ? "drop" : "lost");
      messages_.erase(it);
    } else if (k == "net.cut") {
      Draw(m, e.step, Lane(e.node), " cut");
      messages_.erase(it);
    }
  }

  void Draw(const Message& m, uint64_t step, int lane_to, const std::string& extra) {
    model_.arrows.push_back(Arrow{m.step, step, m.step_held, Lane(m.from), lane_to,
                                  "m " + m.group + m.faults + extra, m.lines});
  }
  void Lost(const Message& m, uint64_t step, const std::string& how) {
    model_.arrows.push_back(Arrow{m.step, std::max(step, m.step), m.step_held, Lane(m.from), -1,
                                  "m " + m.group + m.faults + " " + how, m.lines});
  }

  Row& Procedure(uint64_t id, std::string_view type) {
    Row& row = procedures_[id];
    if (row.key.empty()) {
      row.key = "p" + std::to_string(id);
      row.label = std::string(type.empty() ? "procedure" : type) + " #" + std::to_string(id);
    }
    return row;
  }

  void OnState(const TraceEvent& e) {
    const std::optional<uint64_t> id = ParseNumber(DetailField(e.detail, "procedure"));
    if (!id) return;
    Row& row = Procedure(*id, DetailField(e.detail, "type"));
    const std::string to(DetailField(e.detail, "to"));
    const std::string status(DetailField(e.detail, "status"));
    CloseSpan(row, e.step);
    std::string cls = "st st-" + status;
    row.spans.push_back(Span{e.step, 0, to, cls, {e.line}});
    if (status == "Done" || status == "Failed" || status == "gone") CloseSpan(row, e.step + 1);
  }

  void OnProcedureNote(const TraceEvent& e) {
    const std::optional<uint64_t> id = ParseNumber(DetailField(e.detail, "procedure"));
    if (!id) return AddMark(e.node, e.step, "ev", e.line);
    const std::string_view type = e.kind == "ms.submit" ? DetailWord(e.detail, 0) : "";
    Row& row = Procedure(*id, type);
    const std::string_view what =
        e.detail.substr(std::min(e.detail.size(), e.detail.find(' ') + 1));
    std::string cls = "pn";
    if (what.starts_with("retry")) cls = "pn retry";
    if (what.starts_with("error") || what.starts_with("panic") || what.starts_with("failed")) {
      cls = "pn err";
    }
    if (what.starts_with("rollback") || what.starts_with("rolling")) cls = "pn rollback";
    row.marks.push_back(Mark{e.step, cls, {e.line}});
    if (!row.spans.empty() && row.spans.back().step_end == 0) {
      row.spans.back().lines.push_back(e.line);
    }
  }

  // A pause ends at a virtual time; its span ends at the first step at or after it.
  void ResolvePauses() {
    for (const Pause& p : pauses_) {
      uint64_t end = model_.step_end;
      for (const auto& [step, time] : steps_) {
        if (step > p.step && time >= p.until_ms) {
          end = step;
          break;
        }
      }
      AddSpan(model_.lanes[p.lane], p.step, end, "paused", "paused", {p.line});
    }
  }

  // At most about 60 ticks at round virtual times (1, 2 or 5 times a power of ten, in ms); the
  // page hides the labels that would overlap.
  void Ticks() {
    if (steps_.empty()) return;
    const int64_t span_ms = std::max<int64_t>(1, steps_.back().second - steps_.front().second);
    int64_t every_ms = 1;
    for (int64_t base = 1; span_ms / every_ms > 60; base *= 10) {
      for (const int64_t m : {1, 2, 5}) {
        every_ms = base * m;
        if (span_ms / every_ms <= 60) break;
      }
    }
    int64_t next_ms = steps_.front().second;
    for (const auto& [step, time] : steps_) {
      if (time < next_ms) continue;
      model_.ticks.emplace_back(step, time);
      next_ms = (time / every_ms + 1) * every_ms;
    }
  }

  struct Pause {
    int lane;
    uint64_t step;
    int64_t until_ms;
    size_t line;
  };
  const std::vector<std::string>& lines_;
  const std::vector<std::string>& names_;
  TimelineModel model_;
  std::map<uint64_t, Row> procedures_;
  std::map<int, std::optional<uint64_t>> down_since_;
  std::map<uint64_t, Message> messages_;
  std::vector<Pause> pauses_;
  std::vector<std::pair<uint64_t, int64_t>> steps_;
};

}  // namespace

TimelineModel BuildTimelineModel(const std::vector<std::string>& trace_lines,
                                 const std::vector<std::string>& node_names,
                                 const std::vector<check::Violation>& violations) {
  return Builder(trace_lines, node_names).Build(violations);
}

}  // namespace repartsim::report
