#include "checker/report/console_text.h"

#include <algorithm>

#include "sim/assert.h"

namespace repartsim::report {

namespace {

// Characters of UTF-8 text: bytes that do not continue a sequence.
size_t DisplayWidth(const std::string& text) {
  size_t width = 0;
  for (unsigned char c : text) width += (c & 0xc0) != 0x80;
  return width;
}

std::vector<std::string> CellLines(const std::string& cell) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (true) {
    const size_t end = cell.find('\n', begin);
    lines.push_back(cell.substr(begin, end == std::string::npos ? end : end - begin));
    if (end == std::string::npos) return lines;
    begin = end + 1;
  }
}

std::string Border(const std::vector<size_t>& widths) {
  std::string line = "+";
  for (size_t w : widths) line += std::string(w + 2, '-') + "+";
  return line;
}

// The lines of one table row: each cell's lines, padded to the row's height.
void AppendRow(const std::vector<std::string>& cells, const std::vector<size_t>& widths,
               std::string& out) {
  std::vector<std::vector<std::string>> lines;
  size_t height = 1;
  for (const std::string& cell : cells) {
    lines.push_back(CellLines(cell));
    height = std::max(height, lines.back().size());
  }
  for (size_t h = 0; h < height; ++h) {
    out += "|";
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string text = h < lines[c].size() ? lines[c][h] : "";
      out += " " + text + std::string(widths[c] - DisplayWidth(text), ' ') + " |";
    }
    out += "\n";
  }
}

}  // namespace

std::string RenderTable(const std::vector<std::string>& columns,
                        const std::vector<std::vector<std::string>>& rows) {
  if (rows.empty()) return "++\n++";
  std::vector<size_t> widths;
  for (const std::string& name : columns) widths.push_back(DisplayWidth(name));
  for (const std::vector<std::string>& row : rows) {
    REPARTSIM_ASSERT(row.size() == columns.size());
    for (size_t c = 0; c < row.size(); ++c) {
      for (const std::string& line : CellLines(row[c])) {
        widths[c] = std::max(widths[c], DisplayWidth(line));
      }
    }
  }
  const std::string border = Border(widths);
  std::string out = border + "\n";
  AppendRow(columns, widths, out);
  out += border + "\n";
  for (const std::vector<std::string>& row : rows) AppendRow(row, widths, out);
  return out + border;
}

std::string RenderAnswer(const console::Answer& answer) {
  switch (answer.kind) {
    case console::Answer::Kind::kRows:
      return RenderTable(answer.columns, answer.rows);
    case console::Answer::Kind::kAffectedRows:
      return "Affected Rows: " + std::to_string(answer.affected_rows);
    case console::Answer::Kind::kError:
      return "Error: " + std::to_string(static_cast<uint32_t>(answer.code)) + "(" +
             std::string(console::StatusCodeName(answer.code)) + "), " + answer.message;
  }
  REPARTSIM_UNREACHABLE();
}

std::string ResultBlock(const std::string& statement, const console::Answer& answer) {
  return statement + "\n\n" + RenderAnswer(answer) + "\n\n";
}

nlohmann::json AnswerJson(const console::Answer& answer) {
  nlohmann::json j;
  switch (answer.kind) {
    case console::Answer::Kind::kRows:
      j["kind"] = "rows";
      j["columns"] = answer.columns;
      j["rows"] = answer.rows;
      break;
    case console::Answer::Kind::kAffectedRows:
      j["kind"] = "affected_rows";
      j["affected_rows"] = answer.affected_rows;
      break;
    case console::Answer::Kind::kError:
      j["kind"] = "error";
      j["code"] = static_cast<uint32_t>(answer.code);
      j["code_name"] = std::string(console::StatusCodeName(answer.code));
      j["message"] = answer.message;
      break;
  }
  return j;
}

}  // namespace repartsim::report
