#include "checker/report/trace_format.h"

#include <cstdint>
#include <nlohmann/json.hpp>

#include "sim/assert.h"
#include "sim/json_text.h"
#include "sim/parse_u64.h"

namespace repartsim::report {

namespace {

// The detail's words, a parenthesised group kept in one word ("4398046511104(1024, 0)").
// Splits a detail into words at spaces outside parentheses and double quotes (a region id
// "4398046511104(1024, 0)" and a quoted value `sql="SELECT 1"` are one word each).
std::vector<std::string> DetailWords(const std::string& detail) {
  std::vector<std::string> words;
  std::string word;
  int depth = 0;
  bool quoted = false;
  for (size_t i = 0; i < detail.size(); ++i) {
    const char c = detail[i];
    if (quoted) {
      word += c;
      if (c == '\\' && i + 1 < detail.size()) {
        word += detail[++i];
      } else if (c == '"') {
        quoted = false;
      }
      continue;
    }
    if (c == ' ' && depth == 0) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
      continue;
    }
    if (c == '"') quoted = true;
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    word += c;
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

// A value as JSON: a decimal integer as a number, a double-quoted text as its unescaped
// string (a text cut at the trace's capacity has no closing quote), anything else as a string.
nlohmann::json TypedValue(const std::string& text) {
  if (!text.empty() && text[0] == '"') {
    std::string out;
    for (size_t i = 1; i < text.size(); ++i) {
      if (text[i] == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (text[i] == '"' && i + 1 == text.size()) {
        break;
      } else {
        out += text[i];
      }
    }
    return out;
  }
  if (auto n = sim::ParseU64(text)) return *n;
  if (text.size() > 1 && text[0] == '-') {
    if (auto n = sim::ParseU64(text.substr(1)); n && *n <= static_cast<uint64_t>(INT64_MAX)) {
      return -static_cast<int64_t>(*n);
    }
  }
  return text;
}

}  // namespace

std::vector<std::string_view> TracePositionalNames(std::string_view kind) {
  struct Names {
    std::string_view kind;
    std::vector<std::string_view> names;
  };
  static const std::vector<Names> kNames = {
      {"recv", {"msg"}},
      {"net.cut", {"msg"}},
      {"net.rule", {"action", "msg", "link"}},
      {"net.release", {"msg", "link"}},
      {"net.behind_held", {"msg", "link"}},
      {"net.reconnect", {"link"}},
      {"net.reset", {"link"}},
      {"op", {"op"}},
      {"op.disarmed", {"op"}},
      {"crash", {"name"}},
      {"restart", {"name"}},
      {"crash_point", {"site"}},
      {"ms.submit", {"type"}},
      {"ms.state_passed", {"state"}},
      {"ms.region_request", {"op"}},
      {"dn.region_op", {"op", "region", "code"}},
      {"dn.flush", {"region", "code"}},
      {"dn.lease_expired", {"region"}},
      {"dn.close_region", {"region"}},
      {"dn.accepted_outside", {"region"}},
      {"dn.stale_lease_ignored", {"region"}},
      {"fe.write_done", {"status"}},
      {"fe.ddl_done", {"ddl"}},
      {"fe.ddl_rejected", {"ddl"}},
      {"fe.ddl_resubmit", {"ddl"}},
  };
  for (const Names& n : kNames) {
    if (n.kind == kind) return n.names;
  }
  return {};
}

std::string TraceLineJson(const std::string& line) {
  // "<step> <time_ms> <node> <kind> [<detail>]"
  std::string fields[4];
  size_t pos = 0;
  for (std::string& f : fields) {
    const size_t space = line.find(' ', pos);
    f = line.substr(pos, space == std::string::npos ? std::string::npos : space - pos);
    pos = space == std::string::npos ? line.size() : space + 1;
  }
  // Every line a run records has the four leading fields (sim::Trace).
  REPARTSIM_ASSERT_MSG(!fields[3].empty(), "a trace line without a kind");
  nlohmann::json j;
  j["step"] = sim::ParseU64(fields[0]).value_or(0);
  j["time_ms"] = sim::ParseU64(fields[1]).value_or(0);
  j["node"] = fields[2];
  j["kind"] = fields[3];
  const std::string detail = pos < line.size() ? line.substr(pos) : "";
  // The detail, typed: key=value words as fields (integers as numbers, quoted text
  // unescaped); the leading bare words of a kind get their names (TracePositionalNames); the
  // remaining bare words, free text with no structure, join as "text".
  nlohmann::json typed = nlohmann::json::object();
  const std::vector<std::string_view> names = TracePositionalNames(fields[3]);
  size_t positional = 0;
  std::string text;
  for (const std::string& word : DetailWords(detail)) {
    const size_t eq = word.find('=');
    if (eq != std::string::npos && eq > 0 && word.find('(') > eq && word.find('"') > eq) {
      typed[word.substr(0, eq)] = TypedValue(word.substr(eq + 1));
    } else if (text.empty() && positional < names.size()) {
      std::string value = word;
      if (value.size() > 1 && value.back() == ':') value.pop_back();  // "failed: <error>"
      typed[std::string(names[positional++])] = TypedValue(value);
    } else {
      text += (text.empty() ? "" : " ") + word;
    }
  }
  j["fields"] = typed;
  if (!text.empty()) j["text"] = text;
  return sim::JsonText(j);
}

std::string TraceText(const std::vector<std::string>& lines, const std::string& format) {
  REPARTSIM_ASSERT(format == "text" || format == "jsonl");
  std::string text;
  for (const std::string& line : lines) {
    text += format == "jsonl" ? TraceLineJson(line) : line;
    text += '\n';
  }
  return text;
}

}  // namespace repartsim::report
