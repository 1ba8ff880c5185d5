#include "sim/utf8.h"

#include <cstdint>
#include <cstdio>

#include "sim/assert.h"

namespace repartsim::sim {

std::optional<size_t> FirstInvalidUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto b = static_cast<uint8_t>(text[i]);
    if (b < 0x80) {
      ++i;
      continue;
    }
    size_t length = 0;
    uint8_t low = 0x80, high = 0xBF;  // the allowed range of the second byte
    if (b >= 0xC2 && b <= 0xDF) {
      length = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      length = 3;
      if (b == 0xE0) low = 0xA0;   // overlong
      if (b == 0xED) high = 0x9F;  // surrogates
    } else if (b >= 0xF0 && b <= 0xF4) {
      length = 4;
      if (b == 0xF0) low = 0x90;   // overlong
      if (b == 0xF4) high = 0x8F;  // above U+10FFFF
    } else {
      return i;  // a continuation byte, C0/C1 or F5..FF
    }
    if (i + length > text.size()) return i;
    for (size_t k = 1; k < length; ++k) {
      const auto c = static_cast<uint8_t>(text[i + k]);
      const uint8_t lo = k == 1 ? low : 0x80;
      const uint8_t hi = k == 1 ? high : 0xBF;
      if (c < lo || c > hi) return i;
    }
    i += length;
  }
  return std::nullopt;
}

std::string InvalidUtf8Message(std::string_view text, size_t offset) {
  REPARTSIM_ASSERT(offset < text.size());
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X",
                static_cast<unsigned>(static_cast<uint8_t>(text[offset])));
  return std::string("invalid UTF-8 byte ") + byte;
}

std::string VisibleText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out += c;
      continue;
    }
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02x", byte);
    out += hex;
  }
  REPARTSIM_ASSERT(out.size() >= text.size());
  return out;
}

}  // namespace repartsim::sim
