// Replays every committed fuzz input (tests/fuzz/corpus/<target>/ and the crash regressions
// of tests/fuzz/regressions/<target>/) through its target, in the default suite, with any
// compiler: a regression comes back as a crash or sanitizer report of this test.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_targets.h"
#include "tests/paths.h"

namespace repartsim::fuzz {
namespace {
namespace fuzz_corpus_test {

const std::filesystem::path kFuzzDir = std::filesystem::path(REPARTSIM_SOURCE_DIR) / "tests/fuzz";

std::vector<std::filesystem::path> Inputs(const std::string& kind, const std::string& target) {
  std::vector<std::filesystem::path> out;
  const std::filesystem::path dir = kFuzzDir / kind / target;
  if (!std::filesystem::is_directory(dir)) return out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file()) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

size_t Replay(const std::string& target, int (*entry)(const uint8_t*, size_t)) {
  size_t count = 0;
  for (const char* kind : {"corpus", "regressions"}) {
    for (const std::filesystem::path& path : Inputs(kind, target)) {
      SCOPED_TRACE(path.string());
      const std::string data = Read(path);
      EXPECT_EQ(entry(reinterpret_cast<const uint8_t*>(data.data()), data.size()), 0);
      ++count;
    }
  }
  return count;
}

TEST(FuzzCorpusTest, Sql) { EXPECT_GE(Replay("sql", FuzzSql), 20u); }
TEST(FuzzCorpusTest, Console) { EXPECT_GE(Replay("console", FuzzConsole), 6u); }
TEST(FuzzCorpusTest, Scenario) { EXPECT_GE(Replay("scenario", FuzzScenario), 40u); }
TEST(FuzzCorpusTest, Choices) { EXPECT_GE(Replay("choices", FuzzChoices), 3u); }
TEST(FuzzCorpusTest, Merge) { EXPECT_GE(Replay("merge", FuzzMerge), 3u); }
TEST(FuzzCorpusTest, Run) { EXPECT_GE(Replay("run", FuzzRun), 40u); }
TEST(FuzzCorpusTest, Paths) { EXPECT_GE(Replay("paths", FuzzPaths), 8u); }

}  // namespace fuzz_corpus_test
}  // namespace
}  // namespace repartsim::fuzz
