#include "sim/suggest.h"

#include <algorithm>

#include "sim/assert.h"

namespace repartsim::sim {

size_t EditDistance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme: i - 2, i - 1 and i.
  std::vector<size_t> two(b.size() + 1), one(b.size() + 1), row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) one[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({one[j] + 1, row[j - 1] + 1, one[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        row[j] = std::min(row[j], two[j - 2] + 1);  // adjacent swap
      }
    }
    std::swap(two, one);
    std::swap(one, row);
  }
  const size_t d = one[b.size()];
  REPARTSIM_ASSERT(d <= std::max(a.size(), b.size()));
  return d;
}

std::string Closest(std::string_view word, const std::vector<std::string>& candidates) {
  const size_t limit = std::max<size_t>(1, word.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    const size_t d = EditDistance(word, candidate);
    if (d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  REPARTSIM_ASSERT(best.empty() || best_distance <= limit);
  return best;
}

std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string best = Closest(word, candidates);
  return best.empty() ? std::string() : " (did you mean '" + best + "'?)";
}

}  // namespace repartsim::sim
