#include "sim/json_bounds.h"

namespace repartsim::sim {

namespace {

bool IsJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool IsJsonStructural(char c) {
  return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':';
}

}  // namespace

Status CheckJsonBounds(std::string_view text, const JsonBounds& bounds, const std::string& file,
                       std::string_view what) {
  REPARTSIM_ASSERT(bounds.values_max > 0);
  REPARTSIM_ASSERT(bounds.depth_max > 0);
  uint64_t values = 0;
  uint32_t depth = 0;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (IsJsonSpace(c) || c == ',' || c == ':') {
      ++i;
      continue;
    }
    if (c == '}' || c == ']') {
      if (depth > 0) --depth;
      ++i;
      continue;
    }
    // A value starts here: a container, a string (or key) or a scalar token.
    if (++values > bounds.values_max) {
      return Error{LocateOffset(text, i, file), std::string(what) + " holds more than " +
                                                    std::to_string(bounds.values_max) +
                                                    " JSON values (keys included)"};
    }
    if (c == '{' || c == '[') {
      if (++depth > bounds.depth_max) {
        return Error{LocateOffset(text, i, file), std::string(what) +
                                                      " nests objects and arrays deeper than " +
                                                      std::to_string(bounds.depth_max) + " levels"};
      }
      ++i;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
      ++i;  // the closing quote
    } else {
      while (i < text.size() && !IsJsonSpace(text[i]) && !IsJsonStructural(text[i])) ++i;
    }
  }
  return Ok{};
}

}  // namespace repartsim::sim
