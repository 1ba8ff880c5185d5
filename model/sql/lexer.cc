#include "model/sql/lexer.h"

#include <cctype>

#include "model/sql/sql_limits.h"
#include "sim/utf8.h"

namespace repartsim::model::sql {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string Token::Describe() const {
  switch (kind) {
    case TokenKind::kEnd:
      return "EOF";
    case TokenKind::kString: {
      std::string out = "'";
      for (char c : text) {
        if (c == '\'') out += '\'';
        out += c;
      }
      return out + "'";
    }
    case TokenKind::kQuotedIdent:
      return "\"" + text + "\"";
    default:
      return text;
  }
}

bool Token::IsKeyword(std::string_view keyword) const {
  return kind == TokenKind::kIdent && EqualsIgnoreCase(text, keyword);
}

namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  sim::Result<std::vector<Token>> Run() {
    std::vector<Token> out;
    while (true) {
      SkipSpaceAndComments();
      Token t;
      t.line = line_;
      t.column = column_;
      t.offset = static_cast<uint32_t>(pos_);
      if (pos_ >= text_.size()) {
        out.push_back(t);
        return out;
      }
      char c = text_[pos_];
      if (IsIdentStart(c)) {
        t.kind = TokenKind::kIdent;
        while (pos_ < text_.size() && IsIdentChar(text_[pos_])) t.text += Advance();
      } else if (IsDigit(c) || (c == '.' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) {
        t.kind = TokenKind::kNumber;
        LexNumber(t.text);
      } else if (c == '\'') {
        t.kind = TokenKind::kString;
        if (!LexQuoted('\'', t.text)) return Fail(t, "unterminated string literal");
      } else if (c == '"' || c == '`') {
        t.kind = TokenKind::kQuotedIdent;
        if (!LexQuoted(c, t.text)) return Fail(t, "unterminated quoted identifier");
      } else if (!LexSymbol(t.text)) {
        return Fail(t, std::string("unexpected character '") + c + "'");
      } else {
        t.kind = TokenKind::kSymbol;
      }
      out.push_back(std::move(t));
    }
  }

 private:
  char Advance() {
    char c = text_[pos_++];
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    return c;
  }

  void SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        Advance();
      } else if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '-') {
        while (pos_ < text_.size() && text_[pos_] != '\n') Advance();
      } else {
        return;
      }
    }
  }

  void LexNumber(std::string& out) {
    while (pos_ < text_.size() && (IsDigit(text_[pos_]) || text_[pos_] == '.')) out += Advance();
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t save = pos_;
      std::string exp(1, text_[pos_]);
      size_t p = pos_ + 1;
      if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) exp += text_[p++];
      if (p < text_.size() && IsDigit(text_[p])) {
        pos_ = save;
        for (size_t i = 0; i < exp.size(); ++i) Advance();
        out += exp;
        while (pos_ < text_.size() && IsDigit(text_[pos_])) out += Advance();
      }
    }
  }

  bool LexQuoted(char quote, std::string& out) {
    Advance();
    while (pos_ < text_.size()) {
      char c = Advance();
      if (c == quote) {
        if (pos_ < text_.size() && text_[pos_] == quote) {
          out += Advance();
          continue;
        }
        return true;
      }
      out += c;
    }
    return false;
  }

  bool LexSymbol(std::string& out) {
    static constexpr std::string_view kTwo[] = {"<>", "!=", "<=", ">=", "=="};
    for (std::string_view s : kTwo) {
      if (text_.substr(pos_, 2) == s) {
        out += Advance();
        out += Advance();
        return true;
      }
    }
    static constexpr std::string_view kOne = "(),;=<>*-+.";
    if (kOne.find(text_[pos_]) == std::string_view::npos) return false;
    out += Advance();
    return true;
  }

  sim::Error Fail(const Token& t, std::string message) const {
    return sim::MakeError({file_, t.line, t.column}, std::move(message));
  }

  std::string_view text_;
  const std::string& file_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t column_ = 1;
};

}  // namespace

sim::Result<std::vector<Token>> Tokenize(std::string_view text, const std::string& file) {
  if (text.size() > kSqlTextBytesMax) {
    return sim::MakeError({file, 1, 1}, "SQL text of " + std::to_string(text.size()) +
                                            " bytes exceeds the limit of " +
                                            std::to_string(kSqlTextBytesMax) + " bytes");
  }
  if (const std::optional<size_t> bad = sim::FirstInvalidUtf8(text)) {
    return sim::MakeError(sim::LocateOffset(text, *bad, file),
                          sim::InvalidUtf8Message(text, *bad) + " (SQL text must be UTF-8)");
  }
  return Lexer(text, file).Run();
}

}  // namespace repartsim::model::sql
