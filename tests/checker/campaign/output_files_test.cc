// Goal: a verb's outputs are checked together before any work (campaign::CheckOutputFiles):
// a path that cannot be written is found at its path, two outputs on one file (also through
// '..' or a symlink) or both on stdout at the second flag; and SIGTERM while a StopSignals
// lives is recorded, not fatal.
// Method: paths in a scratch directory; raise() in process.
#include "checker/campaign/output_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "checker/campaign/stop_signals.h"

namespace repartsim::campaign {
namespace {
namespace output_files_test {

namespace fs = std::filesystem;

TEST(OutputFilesTest, ProblemsAreFoundBeforeAnyWorkAtTheOutputThatHasThem) {
  const fs::path dir =
      fs::temp_directory_path() / ("repartsim-outputs-" + std::to_string(getpid()));
  fs::create_directories(dir / "sub");
  const std::string a = (dir / "a.json").string();
  EXPECT_FALSE(CheckOutputFiles({{"--json", a}, {"--junit", ""}, {"--html", "-"}}).has_value());

  auto missing = CheckOutputFiles({{"--json", a}, {"--junit", (dir / "no/x.xml").string()}});
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(missing->index, 1u);
  EXPECT_TRUE(missing->at_path);
  EXPECT_EQ(missing->message,
            "cannot write " + (dir / "no/x.xml").string() + ": No such file or directory");

  auto same = CheckOutputFiles({{"--json", a}, {"--junit", (dir / "sub/../a.json").string()}});
  ASSERT_TRUE(same.has_value());
  EXPECT_EQ(same->index, 1u);
  EXPECT_FALSE(same->at_path);
  EXPECT_EQ(same->message,
            "--junit names the same file as --json (" + (dir / "sub/../a.json").string() + ")");

  std::ofstream(dir / "a.json") << "{}";  // a link is resolved when its target exists
  fs::create_symlink(dir / "a.json", dir / "link.json");
  auto linked = CheckOutputFiles({{"--json", a}, {"--trace", (dir / "link.json").string()}});
  ASSERT_TRUE(linked.has_value());
  EXPECT_EQ(linked->index, 1u);

  auto stdout_twice = CheckOutputFiles({{"--json", "-"}, {"--trace", "-"}});
  ASSERT_TRUE(stdout_twice.has_value());
  EXPECT_EQ(stdout_twice->message, "--trace - and --json - cannot both write to stdout");

  auto is_dir = OutputPathProblem(dir.string());
  ASSERT_TRUE(is_dir.has_value());
  EXPECT_EQ(*is_dir, "cannot write " + dir.string() + ": Is a directory");
  EXPECT_EQ(fs::file_size(dir / "a.json"), 2u);  // checking writes nothing
  EXPECT_FALSE(fs::exists(dir / "sub" / "x.xml"));
  fs::remove_all(dir);
}

TEST(OutputFilesTest, AStopSignalIsRecordedWhileStopSignalsLives) {
  {
    StopSignals signals;
    EXPECT_EQ(StopSignals::Received(), 0);
    std::raise(SIGTERM);
    EXPECT_EQ(StopSignals::Received(), SIGTERM);
  }
  StopSignals again;  // a new campaign starts clean
  EXPECT_EQ(StopSignals::Received(), 0);
}

}  // namespace output_files_test
}  // namespace
}  // namespace repartsim::campaign
