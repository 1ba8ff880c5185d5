// The trace as a file: text (one line per event, docs/trace.md) or JSON lines, one object per
// trace line {"step", "time_ms", "node", "kind", "fields"} and, when the detail ends in free
// text, "text": `fields` holds the detail's key=value words (decimal integers as numbers,
// quoted text unescaped) and its leading bare words under the names TracePositionalNames gives
// them (a parenthesised group such as a region id is one word).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace repartsim::report {

// The names of the leading bare words of a trace kind's detail ("recv" -> {"msg"},
// "dn.region_op" -> {"op", "region", "code"}); empty for kinds whose details are all
// key=value words.
std::vector<std::string_view> TracePositionalNames(std::string_view kind);

// One trace line as a JSON object (one line of text, no newline).
std::string TraceLineJson(const std::string& line);

// The trace file's text: every line, as it is ("text") or as JSON ("jsonl"), each ending in a
// newline. REQUIRES: format is "text" or "jsonl".
std::string TraceText(const std::vector<std::string>& lines, const std::string& format);

}  // namespace repartsim::report
