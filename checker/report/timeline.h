// The timeline of one run, read from its trace lines (docs/trace.md): what the HTML page
// draws, in steps and trace-line indices, with no drawing in it. The x axis is the driver
// step (monotone in virtual time; several events of one millisecond stay apart); `ticks`
// give the virtual time at chosen steps. Every drawn item names the trace lines it stands
// for (`lines`, indices into TimelineRun::trace_lines), which the page shows on hover.
// Rows: one per procedure (its GreptimeDB states as spans), one lane per node plus a client
// lane (events as marks, crashed and paused time as spans), messages as arrows between
// lanes, one row per (region, datanode), one cached-route row per frontend, three plots.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/check/violation.h"

namespace repartsim::report {

// One trace line, split (kind and detail view the line it was parsed from).
struct TraceEvent {
  size_t line = 0;  // index in the trace
  uint64_t step = 0;
  int64_t time_ms = 0;
  int node = -1;  // n<k>; -1 for "-"
  std::string_view kind;
  std::string_view detail;
};

// "<step> <time_ms> <node> <kind> [<detail>]"; nullopt for a line of any other shape.
std::optional<TraceEvent> ParseTraceLine(std::string_view line, size_t index);
// The value of the `key=value` word of `detail` ("" when absent): a quoted value up to its
// closing quote (quotes kept), a parenthesised one up to its closing parenthesis.
std::string_view DetailField(std::string_view detail, std::string_view key);
// The `n`-th (0-based) word of `detail`, "" when absent; a parenthesised or quoted part is in
// one word ("EnterStaging 4398046511104(1024, 0) Ok": word 1 is the region id).
std::string_view DetailWord(std::string_view detail, size_t n);

struct Span {  // [step_first, step_end) of a row
  uint64_t step_first = 0;
  uint64_t step_end = 0;
  std::string label;
  std::string cls;  // CSS class
  std::vector<size_t> lines;
};

struct Mark {  // one event at a step
  uint64_t step = 0;
  std::string cls;
  std::vector<size_t> lines;
};

struct Row {
  std::string key;    // data-node / data-key of the row
  std::string label;  // shown at the left
  std::vector<Span> spans;
  std::vector<Mark> marks;
};

struct Arrow {  // a message from one lane to another (to_lane -1: lost on the way)
  uint64_t step_from = 0;
  uint64_t step_to = 0;
  uint64_t step_held = 0;  // > step_from: held on the sender's lane until this step
  int lane_from = 0;
  int lane_to = -1;
  std::string cls;
  std::vector<size_t> lines;
};

struct Series {
  std::string label;
  std::string cls;
  std::vector<std::pair<uint64_t, int64_t>> points;  // (step, value), steps ascending
  int64_t max = 0;
};

struct LostRow {  // a row a violation names, with the writes that acknowledged it
  std::string text;
  std::vector<size_t> write_lines;  // `op insert` lines that wrote it
  std::vector<size_t> ack_lines;    // their `fe.write_done ... acked` lines
  std::vector<size_t> loss_lines;   // the events the report says lost it
};

struct ViolationMark {
  uint64_t step = 0;
  int64_t time_ms = 0;
  std::string invariant;
  std::string message;
  std::vector<LostRow> rows;
  std::vector<std::string> regions;
  std::vector<std::string> notes;
  std::vector<size_t> lines;        // its trace excerpt, as indices
  std::vector<size_t> query_lines;  // `op query` and `fe.query_done` of the query it names
};

struct TimelineModel {
  uint64_t step_end = 1;                            // x extent: the last step + 1
  std::vector<std::pair<uint64_t, int64_t>> ticks;  // (step, time_ms)
  std::vector<Row> procedures;
  std::vector<Row> lanes;  // node k is lanes[k]; the client lane is last
  std::vector<Arrow> arrows;
  std::vector<Row> regions;
  std::vector<Row> routes;
  std::vector<Series> plots;
  std::vector<ViolationMark> violations;
};

// REQUIRES: node_names[k] is the name of node n<k> ("metasrv", "dn1", "fe1").
TimelineModel BuildTimelineModel(const std::vector<std::string>& trace_lines,
                                 const std::vector<std::string>& node_names,
                                 const std::vector<check::Violation>& violations);

}  // namespace repartsim::report
