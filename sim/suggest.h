// "Did you mean": the candidate closest to a mistyped word, for error messages (unknown verbs,
// flags, rules, keys, states, crash sites). Closeness is the edit distance (insertions,
// deletions, substitutions and swaps of adjacent characters, each 1); a candidate is offered
// only when it is within about a third of the word's length, so a word that resembles
// nothing gets no suggestion.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace repartsim::sim {

// The edit distance between `a` and `b` (optimal string alignment).
size_t EditDistance(std::string_view a, std::string_view b);

// The closest of `candidates` to `word` (the first of equals, in the order given), or "" when
// none is within max(1, |word| / 3) edits. An exact match returns itself.
std::string Closest(std::string_view word, const std::vector<std::string>& candidates);

// " (did you mean 'X'?)" for Closest(word, candidates), or "".
std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace repartsim::sim
