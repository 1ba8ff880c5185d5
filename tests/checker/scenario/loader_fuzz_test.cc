// Goal: bad input never crashes. Every mutation of a bundled scenario either loads, and then
// runs (briefly) without an internal error, or is refused with a located error
// `file:line:col: error: message`. Method: apply seeded random mutations (delete a span,
// duplicate or drop a line, replace a byte with YAML punctuation or a digit, truncate) to each
// bundled scenario's text, parse it, and run the ones that load with a small step budget; an
// internal error would end the process (exit 70) and fail the test run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "sim/prng.h"
#include "tests/checker/scenario/bundled_scenarios.h"

namespace repartsim::scenario {
namespace {
namespace loader_fuzz_test {

constexpr int kMutationsPerFile = 30;

std::string Mutate(std::string text, sim::Prng& prng) {
  static const std::string kBytes = ":{}[]-,'\"\n #&*!|>0123456789aZ";
  if (text.empty()) return text;
  const size_t at = prng.Below(text.size());
  switch (prng.Below(6)) {
    case 0:  // delete a span
      text.erase(at, 1 + prng.Below(std::min<size_t>(40, text.size() - at)));
      break;
    case 1:  // replace one byte
      text[at] = kBytes[prng.Below(kBytes.size())];
      break;
    case 2: {  // duplicate the line holding `at`
      const size_t begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
      const size_t end = std::min(text.size(), text.find('\n', at) + 1);
      text.insert(begin, text.substr(begin, end - begin));
      break;
    }
    case 3: {  // drop the line holding `at`
      const size_t begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
      const size_t end = std::min(text.size(), text.find('\n', at) + 1);
      text.erase(begin, end - begin);
      break;
    }
    case 4:  // truncate
      text.resize(at);
      break;
    default:  // insert a byte
      text.insert(at, 1, kBytes[prng.Below(kBytes.size())]);
      break;
  }
  return text;
}

// True iff `text` is "fuzz.yaml:<line>:<col>: error: <message>" with line, col >= 1.
bool Located(const std::string& text) {
  const std::string file = "fuzz.yaml:";
  if (text.rfind(file, 0) != 0) return false;
  size_t at = file.size();
  for (int field = 0; field < 2; ++field) {
    const size_t start = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    if (at == start || text[start] == '0' || at >= text.size() || text[at] != ':') return false;
    ++at;
  }
  const std::string rest = " error: ";
  return text.compare(at, rest.size(), rest) == 0 && text.size() > at + rest.size();
}

TEST(LoaderFuzzTest, LocatedAcceptsOnlyTheLocatedForm) {
  EXPECT_TRUE(Located("fuzz.yaml:3:14: error: unknown key 'x'"));
  EXPECT_FALSE(Located("fuzz.yaml: error: expected a mapping"));
  EXPECT_FALSE(Located("fuzz.yaml:0:0: error: x"));
  EXPECT_FALSE(Located("fuzz.yaml:3: error: x"));
  EXPECT_FALSE(Located("fuzz.yaml:3:4: error: "));
}

TEST(LoaderFuzzTest, MutatedScenariosLoadAndRunOrFailWithALocatedError) {
  sim::Prng prng(20261130);
  uint64_t loaded = 0, refused = 0;
  for (const std::string& path : BundledScenarios()) {
    std::ifstream in(path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string original = buffer.str();
    for (int i = 0; i < kMutationsPerFile; ++i) {
      std::string text = Mutate(original, prng);
      if (prng.Below(2) == 0) text = Mutate(text, prng);
      auto result = ParseScenario(text, "fuzz.yaml");
      if (!result.ok()) {
        ++refused;
        EXPECT_TRUE(Located(result.error().Format()))
            << result.error().Format() << "\n--- from " << path << ":\n"
            << text;
        continue;
      }
      ++loaded;
      Scenario s = result.value();
      s.limits.steps_max = std::min<uint64_t>(s.limits.steps_max, 1500);
      run::RunConfig config;
      config.seed = i;
      auto report = run::RunScenario(s, config);
      EXPECT_TRUE(report.ok()) << path;
    }
  }
  // Both branches are exercised.
  EXPECT_GT(loaded, 100u);
  EXPECT_GT(refused, 100u);
}

}  // namespace loader_fuzz_test
}  // namespace
}  // namespace repartsim::scenario
