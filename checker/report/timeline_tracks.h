// The tracks under the node lanes of a timeline (timeline.h), fed one trace event
// at a time: each region's role on each datanode (from its region operations, lease expiries
// and closes), each frontend's cached route version, the write plots (acknowledged rows,
// writes in flight, writes whose outcome is unknown), and at the end the violations with the
// trace lines of the writes that acknowledged their rows and of the events that lost them.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/check/violation.h"
#include "checker/report/timeline.h"

namespace repartsim::report {

class Tracks {
 public:
  Tracks(const std::vector<std::string>& lines, const std::vector<std::string>& names)
      : lines_(lines), names_(names) {}

  void OnEvent(const TraceEvent& e);
  // Closes open spans at model.step_end and moves the tracks and violations into `model`.
  void Finish(TimelineModel& model, const std::vector<check::Violation>& violations);

 private:
  struct Write {
    int64_t rows = 0;
    size_t insert_line = 0;
    std::vector<size_t> ack_lines;
  };
  Row& RegionRow(std::string_view region, int node);
  Row& RouteRow(int node);
  void OnRegion(const TraceEvent& e);
  void OnWrite(const TraceEvent& e);
  ViolationMark ToMark(const check::Violation& v, uint64_t step_end) const;
  // Adds to `row` the writes of the rendered row `group` ("(host='h0', ts=2, v=92, a=5)"),
  // their acknowledgements, and the trace lines the violation's note on that row names as
  // its loss (`line_index` finds a trace line's index).
  void LinkRow(std::string_view group, const std::vector<std::string>& notes,
               const std::function<std::optional<size_t>(std::string_view)>& line_index,
               LostRow& row) const;

  const std::vector<std::string>& lines_;
  const std::vector<std::string>& names_;
  // Regions ordered by (table, region number, node).
  std::map<std::pair<std::pair<uint64_t, uint64_t>, int>, Row> regions_;
  std::map<int, Row> routes_;
  std::map<uint64_t, Write> writes_;                     // by History write id
  std::map<uint64_t, std::vector<size_t>> query_lines_;  // by History query id
  // The write ids of the `op insert` lines holding each row tuple "('h0', 2, 92, 5)", in
  // trace order.
  std::map<std::string, std::vector<uint64_t>> tuple_writes_;
  Series acked_{"acked rows", "p-acked", {}, 0};
  Series in_flight_{"writes in flight", "p-flight", {}, 0};
  Series unknown_{"unknown writes", "p-unknown", {}, 0};
  int64_t acked_rows_ = 0, in_flight_writes_ = 0, unknown_writes_ = 0;
};

}  // namespace repartsim::report
