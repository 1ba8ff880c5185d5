#include "tools/repartsim/colour.h"

#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace repartsim::tools {

namespace {

constexpr std::string_view kRed = "\033[31m";
constexpr std::string_view kGreen = "\033[32m";
constexpr std::string_view kReset = "\033[0m";

struct Word {
  std::string_view text;
  std::string_view colour;
};

constexpr Word kWords[] = {
    {"UNEXPECTED", kRed},     {"NOT REPRODUCED", kRed},   {"NOT met", kRed},
    {"outcome=safety", kRed}, {"outcome=liveness", kRed}, {"outcome=nondeterminism", kRed},
    {"outcome=pass", kGreen}, {"-> met", kGreen},
};

}  // namespace

bool ColourWanted(std::FILE* stream) {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && no_colour[0] != '\0') return false;
  return isatty(fileno(stream)) != 0;
}

std::string Colour(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t at = 0; at < text.size();) {
    const Word* found = nullptr;
    for (const Word& w : kWords) {
      if (text.compare(at, w.text.size(), w.text) == 0) {
        found = &w;
        break;
      }
    }
    if (found == nullptr) {
      out += text[at++];
      continue;
    }
    out += found->colour;
    out += found->text;
    out += kReset;
    at += found->text.size();
  }
  return out;
}

void WriteColoured(std::FILE* stream, const std::string& text) {
  const std::string out = ColourWanted(stream) ? Colour(text) : text;
  std::fwrite(out.data(), 1, out.size(), stream);
}

}  // namespace repartsim::tools
