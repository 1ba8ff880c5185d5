#include "sim/choice_list.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <optional>

#include "sim/assert.h"
#include "sim/input_file.h"

namespace repartsim::sim {

bool IsValidChoiceLabel(std::string_view label) {
  if (label.empty()) return false;
  for (char c : label) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '#') return false;
  }
  return true;
}

uint32_t ChoiceList::InternLabel(std::string_view label) {
  REPARTSIM_ASSERT_MSG(IsValidChoiceLabel(label), "choice label must be a non-empty token");
  for (size_t i = 0; i < labels_.size(); ++i) {
    if (labels_[i] == label) return static_cast<uint32_t>(i);
  }
  labels_.emplace_back(label);
  return static_cast<uint32_t>(labels_.size() - 1);
}

void ChoiceList::AddChoose(std::string_view label, uint32_t option_count, uint32_t value) {
  REPARTSIM_ASSERT(option_count >= 2);
  REPARTSIM_ASSERT(value < option_count);
  choices_.push_back(Choice{ChoiceKind::kChoose, InternLabel(label), option_count, Ratio{}, value});
}

void ChoiceList::AddChance(std::string_view label, Ratio ratio, bool value) {
  REPARTSIM_ASSERT(ratio.IsValid());
  REPARTSIM_ASSERT(!ratio.IsNever() && !ratio.IsAlways());
  choices_.push_back(Choice{ChoiceKind::kChance, InternLabel(label), 2, ratio, value ? 1u : 0u});
}

void ChoiceList::Truncate(size_t count) {
  if (count < choices_.size()) choices_.resize(count);
}

std::string ChoiceList::ToText() const {
  std::string out = "repartsim-choices 1\n";
  for (const Choice& c : choices_) {
    if (c.kind == ChoiceKind::kChoose) {
      out += "choose " + labels_[c.label_id] + " " + std::to_string(c.option_count) + " " +
             std::to_string(c.value) + "\n";
    } else {
      out += "chance " + labels_[c.label_id] + " " + c.ratio.ToString() + " " +
             std::to_string(c.value) + "\n";
    }
  }
  return out;
}

Status ChoiceList::Save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const std::string text = ToText();
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) return MakeError(SourceLocation{path, 0, 0}, "choices: cannot write file");
  return Ok{};
}

namespace {

struct Token {
  std::string_view text;
  uint32_t column = 0;  // 1-based
};

std::vector<Token> SplitTokens(std::string_view line) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size()) break;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    tokens.push_back(Token{line.substr(start, i - start), static_cast<uint32_t>(start + 1)});
  }
  return tokens;
}

bool ParseU32(std::string_view s, uint32_t& out) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

class Parser {
 public:
  explicit Parser(const std::string& file) : file_(file) {}

  Error Fail(uint32_t line, uint32_t column, std::string message) const {
    return MakeError(SourceLocation{file_, line, column}, "choices: " + std::move(message));
  }

  // Parses one entry line (already split); appends to `list` or returns an error.
  std::optional<Error> Entry(uint32_t line_no, const std::vector<Token>& t, ChoiceList& list) {
    const bool is_choose = t[0].text == "choose";
    if (!is_choose && t[0].text != "chance") {
      return Fail(
          line_no, t[0].column,
          "unknown entry kind '" + std::string(t[0].text) + "' (expected choose or chance)");
    }
    if (t.size() < 4) {
      const uint32_t col = t.back().column + static_cast<uint32_t>(t.back().text.size());
      return Fail(line_no, col, "expected 4 fields, got " + std::to_string(t.size()));
    }
    if (t.size() > 4) {
      return Fail(line_no, t[4].column, "unexpected text '" + std::string(t[4].text) + "'");
    }
    if (!IsValidChoiceLabel(t[1].text)) {
      return Fail(line_no, t[1].column, "invalid label '" + std::string(t[1].text) + "'");
    }
    uint32_t value = 0;
    if (!ParseU32(t[3].text, value)) {
      return Fail(line_no, t[3].column, "expected a value, got '" + std::string(t[3].text) + "'");
    }
    if (is_choose) {
      uint32_t count = 0;
      if (!ParseU32(t[2].text, count) || count < 2) {
        return Fail(line_no, t[2].column,
                    "expected an option count >= 2, got '" + std::string(t[2].text) + "'");
      }
      if (value >= count) {
        return Fail(line_no, t[3].column,
                    "value " + std::to_string(value) + " out of range for " +
                        std::to_string(count) + " options");
      }
      list.AddChoose(t[1].text, count, value);
      return std::nullopt;
    }
    Result<Ratio> ratio = ParseRatio(t[2].text, SourceLocation{file_, line_no, t[2].column});
    if (!ratio.ok()) {
      Error e = ratio.error();
      e.message = "choices: " + e.message;
      return e;
    }
    if (ratio.value().IsNever() || ratio.value().IsAlways()) {
      return Fail(
          line_no, t[2].column,
          "chance ratio must be strictly between 0 and 1, got '" + std::string(t[2].text) + "'");
    }
    if (value > 1) {
      return Fail(line_no, t[3].column,
                  "chance value must be 0 or 1, got " + std::to_string(value));
    }
    list.AddChance(t[1].text, ratio.value(), value == 1);
    return std::nullopt;
  }

 private:
  const std::string& file_;
};

}  // namespace

Result<ChoiceList> ChoiceList::Parse(std::string_view text, const std::string& file_name) {
  Parser parser(file_name);
  ChoiceList list;
  bool seen_header = false;
  uint32_t line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::vector<Token> tokens = SplitTokens(line);
    if (tokens.empty() || tokens[0].text[0] == '#') continue;
    if (!seen_header) {
      if (tokens.size() != 2 || tokens[0].text != "repartsim-choices" || tokens[1].text != "1") {
        return parser.Fail(line_no, tokens[0].column, "expected header 'repartsim-choices 1'");
      }
      seen_header = true;
      continue;
    }
    if (std::optional<Error> error = parser.Entry(line_no, tokens, list)) return *error;
  }
  if (!seen_header) return parser.Fail(1, 1, "expected header 'repartsim-choices 1'");
  return list;
}

Result<ChoiceList> ChoiceList::Load(const std::string& path) {
  Result<std::string> text = ReadInputFile(path, kChoiceFileBytesMax, "choice file");
  if (!text.ok()) return text.error();
  return Parse(text.value(), path);
}

}  // namespace repartsim::sim
