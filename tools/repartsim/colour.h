// Colour on a terminal (issue 53): verdict words in red or green when the stream is a TTY and
// NO_COLOR (https://no-color.org) is unset or empty; files, pipes and CI logs stay plain.
#pragma once

#include <cstdio>
#include <string>

namespace repartsim::tools {

// True iff `stream` is a terminal and NO_COLOR is unset or empty.
bool ColourWanted(std::FILE* stream);

// `text` with its verdict words coloured: red for "UNEXPECTED", "NOT REPRODUCED", "NOT met",
// "outcome=safety", "outcome=liveness", "outcome=nondeterminism"; green for "outcome=pass"
// and "-> met". Only whole occurrences are wrapped; the rest of the text is unchanged.
std::string Colour(const std::string& text);

// Colour(text) when ColourWanted(stream), else `text`, written to `stream`.
void WriteColoured(std::FILE* stream, const std::string& text);

}  // namespace repartsim::tools
