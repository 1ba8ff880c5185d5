#include "checker/console/script.h"

namespace repartsim::console {

namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Appends script[begin, end) as a statement, without the blanks around it; nothing when blank.
void Append(std::string_view script, size_t begin, size_t end, bool complete,
            const std::string& file, std::vector<ScriptStatement>& out) {
  while (begin < end && IsBlank(script[begin])) ++begin;
  while (end > begin && IsBlank(script[end - 1])) --end;
  if (begin == end) return;
  ScriptStatement s;
  s.text = std::string(script.substr(begin, end - begin));
  uint32_t line = 1;
  uint32_t column = 1;
  for (size_t i = 0; i < begin; ++i) {
    column = script[i] == '\n' ? 1 : column + 1;
    line += script[i] == '\n';
  }
  s.location = {file, line, column};
  s.complete = complete;
  out.push_back(std::move(s));
}

}  // namespace

std::vector<ScriptStatement> SplitScript(std::string_view script, const std::string& file) {
  std::vector<ScriptStatement> out;
  size_t begin = 0;
  char quote = 0;  // the open quote: ', " or `
  for (size_t i = 0; i < script.size(); ++i) {
    const char c = script[i];
    if (quote != 0) {
      if (c == quote) quote = 0;  // a doubled quote closes and reopens: the same state
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      quote = c;
    } else if (c == '-' && i + 1 < script.size() && script[i + 1] == '-') {
      while (i < script.size() && script[i] != '\n') ++i;
    } else if (c == ';') {
      Append(script, begin, i + 1, true, file, out);
      begin = i + 1;
    }
  }
  Append(script, begin, script.size(), false, file, out);
  return out;
}

}  // namespace repartsim::console
