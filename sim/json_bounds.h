// Bounds on a JSON text before it is parsed into a tree. nlohmann::json holds a value in 16
// bytes plus about 80 for an object member and a heap block for a long string, so the tree of
// a report is several times its text (a 232 MB sweep report took 1.9 GB to merge) and a
// text of tiny values (`[0,0,0,...]`, 2 bytes a value) many times more: the byte limit of a
// report file does not bound the memory its parse takes. CheckJsonBounds counts values and
// nesting in one pass without allocating, so a report beyond the bounds is refused with a
// located error (exit 64) before the parse starts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/result.h"

namespace repartsim::sim {

struct JsonBounds {
  // Values of the text, object keys and containers included (`{"a": [1, 2]}` is 5).
  uint64_t values_max = 0;
  // Nesting of objects and arrays (`[[1]]` is 2).
  uint32_t depth_max = 0;
};

// Ok when `text` holds at most `bounds.values_max` values nested at most `bounds.depth_max`
// deep; else an error located (in `file`) at the first value beyond a bound:
//   "<what> holds more than N JSON values (keys included)"
//   "<what> nests objects and arrays deeper than N levels"
// Syntax is not checked: a malformed text passes or fails by its counts, and the parser that
// follows reports its syntax. REQUIRES: both bounds > 0.
Status CheckJsonBounds(std::string_view text, const JsonBounds& bounds, const std::string& file,
                       std::string_view what);

}  // namespace repartsim::sim
