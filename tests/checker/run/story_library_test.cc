// Goal: every story of the bundled library's failing runs tells a cause, not its violation
// again, and names the docs/findings.md class it matches. The runs: the first failing seed of
// every bundled scenario under each profile whose expectation names a violation (seed 0 for
// most). Their stories (first lines) are pinned in tests/data/stories/library.txt
// (regenerate: REPARTSIM_UPDATE_GOLDEN=1 build/tests/test_checker_run
// --gtest_filter='StoryLibraryTest.*', docs/testing.md), and the test fails when a story's
// first line is one of its violations' messages, or when a scenario docs/findings.md's
// summary table lists under a class has no story naming that class (or another class listing it).
// Method: the runs in process (RunScenario, keep_trace), the findings table parsed for its
// first column and the backquoted scenario paths of its fourth.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/checker/scenario/bundled_scenarios.h"
#include "tests/paths.h"

namespace repartsim::run {
namespace {
namespace story_library_test {

constexpr uint64_t kSeedsSearched = 10;

struct LibraryRun {
  std::string file;  // relative to scenarios/
  std::string profile;
  uint64_t seed = 0;
  std::vector<check::Violation> violations;
  std::vector<Story> stories;
};

std::vector<LibraryRun> FailingRuns() {
  static const std::vector<LibraryRun> runs = [] {
    std::vector<LibraryRun> out;
    const std::string root = std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/";
    for (const std::string& path : scenario::BundledScenarios()) {
      auto s = scenario::LoadScenarioFile(path);
      if (!s.ok()) continue;  // the bundled-scenario test reports it
      for (const char* profile : {"reference", "greptime"}) {
        const auto expect = s.value().ExpectationFor(profile);
        if (!expect || expect->pass) continue;
        RunConfig config;
        config.profile = profile;
        config.keep_trace = true;
        LibraryRun run{path.substr(root.size()), profile, 0, {}, {}};
        for (config.seed = s.value().seed_first;
             run.stories.empty() && config.seed < s.value().seed_first + kSeedsSearched;
             ++config.seed) {
          auto report = RunScenario(s.value(), config);
          if (!report.ok()) break;
          run.seed = config.seed;
          run.violations = report.value().violations;
          run.stories = report.value().stories;
        }
        out.push_back(std::move(run));
      }
    }
    return out;
  }();
  return runs;
}

std::string Render(const std::vector<LibraryRun>& runs) {
  std::string out;
  for (const LibraryRun& run : runs) {
    out += run.file + " " + run.profile + " seed " + std::to_string(run.seed) + ":";
    if (run.stories.empty()) out += " (no violation in ten seeds)";
    out += "\n";
    for (size_t i = 0; i < run.stories.size(); ++i) {
      out += "  " + std::to_string(i + 1) + " (" + run.stories[i].invariants +
             "): " + run.stories[i].cause + "\n";
    }
  }
  return out;
}

// Scenario (relative to scenarios/, with ".yaml") -> the classes docs/findings.md's summary
// table lists it under. A cell names a scenario by its path or, after a first path of the
// same directory, by its bare name ("`stale_cache/a`, `b`").
std::map<std::string, std::set<std::string>> FindingsByScenario() {
  std::ifstream in(std::string(REPARTSIM_SOURCE_DIR) + "/docs/findings.md");
  std::map<std::string, std::set<std::string>> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream row(line.substr(2));
    for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell);
    if (cells.size() < 4) continue;
    const std::string id = cells[0].substr(0, cells[0].find(' '));
    if (id.empty() || id == "Id" || id.find('-') != std::string::npos) continue;
    std::string dir;
    const std::string& cell = cells[3];
    for (size_t at = cell.find('`'); at != std::string::npos; at = cell.find('`', at)) {
      const size_t end = cell.find('`', at + 1);
      if (end == std::string::npos) break;
      std::string name = cell.substr(at + 1, end - at - 1);
      at = end + 1;
      if (name.find(' ') != std::string::npos || name.find('=') != std::string::npos) continue;
      if (cell.compare(at, 6, " with ") == 0) continue;  // a run with a switch changed
      if (name.find('/') != std::string::npos) {
        dir = name.substr(0, name.rfind('/') + 1);
      } else {
        name = dir + name;
      }
      out[name + ".yaml"].insert(id);
    }
  }
  return out;
}

TEST(StoryLibraryTest, StoriesOfEveryFailingRunArePinned) {
  const std::string golden = std::string(REPARTSIM_SOURCE_DIR) + "/tests/data/stories/library.txt";
  const std::string got = Render(FailingRuns());
  if (std::getenv("REPARTSIM_UPDATE_GOLDEN") != nullptr) std::ofstream(golden) << got;
  std::ifstream in(golden);
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(got, want.str()) << "rewrite with REPARTSIM_UPDATE_GOLDEN=1 and review the diff";
  EXPECT_EQ(got.find("(no violation"), std::string::npos) << got;
}

TEST(StoryLibraryTest, NoStoryOnlyRestatesItsViolation) {
  for (const LibraryRun& run : FailingRuns()) {
    for (const Story& story : run.stories) {
      for (const size_t i : story.violations) {
        EXPECT_NE(story.cause, run.violations[i].message)
            << run.file << " " << run.profile << " seed " << run.seed;
      }
    }
  }
}

TEST(StoryLibraryTest, EveryListedScenarioNamesItsFinding) {
  const auto findings = FindingsByScenario();
  ASSERT_GE(findings.size(), 20u);
  for (const LibraryRun& run : FailingRuns()) {
    const auto listed = findings.find(run.file);
    if (listed == findings.end()) continue;
    bool named = false;
    for (const Story& story : run.stories) {
      for (const std::string& id : listed->second) {
        named = named || story.cause.find(id + " (docs/findings.md): ") != std::string::npos;
      }
    }
    std::string ids;
    for (const std::string& id : listed->second) ids += " " + id;
    EXPECT_TRUE(named) << run.file << " " << run.profile << " seed " << run.seed
                       << ": no story names any of" << ids;
  }
}

}  // namespace story_library_test
}  // namespace
}  // namespace repartsim::run
