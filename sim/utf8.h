// UTF-8 validity of input text. SQL and YAML reach JSON reports, traces and file names, and
// GreptimeDB's SQL parser only ever sees valid UTF-8 (a Rust &str), so input is checked at
// the boundary and invalid bytes are a located input error, not an abort in a JSON writer.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace repartsim::sim {

// The byte offset of the first byte that does not start or continue a well-formed UTF-8
// sequence (no overlong forms, no surrogates, nothing above U+10FFFF); nullopt when `text` is
// valid.
std::optional<size_t> FirstInvalidUtf8(std::string_view text);

// "invalid UTF-8 byte 0xFF": names the byte at `offset`, which must lie inside `text`.
std::string InvalidUtf8Message(std::string_view text, size_t offset);

// `text` for a terminal line: every control byte (below 0x20, and 0x7f; newline and tab too)
// shown as "\x1b", so a scenario name or path cannot move the cursor, recolour the terminal or
// start a line of its own. Other bytes are kept.
std::string VisibleText(std::string_view text);

}  // namespace repartsim::sim
