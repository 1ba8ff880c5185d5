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

}  // namespace repartsim::sim
