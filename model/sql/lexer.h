// The SQL tokenizer: identifiers (bare, "double-quoted" or `backquoted`), numbers, 'strings'
// ('' escapes a quote), symbols, and `--` comments. Every token records its 1-based line and
// column so every parse error can name line:column. Keywords are identifiers; callers compare
// them case-insensitively.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/result.h"

namespace repartsim::model::sql {

enum class TokenKind { kIdent, kQuotedIdent, kNumber, kString, kSymbol, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;  // identifier/number/symbol text; unescaped string contents
  uint32_t line = 1;
  uint32_t column = 1;
  uint32_t offset = 0;  // byte offset of the token's first character

  // How an error message shows the token: the source text, "EOF" at the end.
  std::string Describe() const;
  // True iff this is a bare identifier equal to `keyword` ignoring ASCII case.
  bool IsKeyword(std::string_view keyword) const;
  bool IsSymbol(std::string_view symbol) const {
    return kind == TokenKind::kSymbol && text == symbol;
  }
};

// Tokenizes `text`; the last token is kEnd. Errors: "unterminated string literal",
// "unterminated quoted identifier", "unexpected character '#'" at their line:column in `file`.
sim::Result<std::vector<Token>> Tokenize(std::string_view text, const std::string& file);

bool EqualsIgnoreCase(std::string_view a, std::string_view b);

}  // namespace repartsim::model::sql
