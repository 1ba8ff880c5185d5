#include "sim/result.h"

namespace repartsim::sim {

std::string Error::Format() const {
  std::string out = location.file.empty() ? std::string("<input>") : location.file;
  if (location.line > 0) {
    out += ':' + std::to_string(location.line);
    if (location.column > 0) out += ':' + std::to_string(location.column);
  }
  out += ": error: ";
  out += message;
  return out;
}

SourceLocation LocateOffset(std::string_view text, size_t offset, const std::string& file) {
  uint32_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {file, line, column};
}

}  // namespace repartsim::sim
