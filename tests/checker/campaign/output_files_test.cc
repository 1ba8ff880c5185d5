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

// Issue 54 (R4): a report written through a symlink replaced the link with a regular file
// (as root, `--junit /dev/stdout` turned the system's /dev/stdout into one).
TEST(OutputFilesTest, ASymlinkIsWrittenThroughAndADescriptorPathInPlace) {
  const fs::path dir =
      fs::temp_directory_path() / ("repartsim-outputs-link-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  fs::create_symlink("sub/real.json", dir / "link.json");  // dangling until written
  ASSERT_FALSE(OutputPathProblem((dir / "link.json").string()).has_value());
  ASSERT_TRUE(WriteTextFile((dir / "link.json").string(), "{}\n").ok());
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(fs::file_size(dir / "sub/real.json"), 3u);
  ASSERT_TRUE(WriteTextFile((dir / "link.json").string(), "[1]\n").ok());
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(fs::file_size(dir / "sub/real.json"), 4u);

  EXPECT_EQ(OutputDescriptor("-"), 1);
  EXPECT_EQ(OutputDescriptor("/dev/stdout"), 1);
  EXPECT_EQ(OutputDescriptor("/dev/stderr"), 2);
  EXPECT_EQ(OutputDescriptor("/proc/self/fd/7"), 7);
  EXPECT_EQ(OutputDescriptor("/dev/fd/12"), 12);
  EXPECT_EQ(OutputDescriptor("/dev/fdx/1"), std::nullopt);
  fs::create_symlink("/dev/stdout", dir / "out");
  EXPECT_EQ(OutputDescriptor((dir / "out").string()), 1);
  EXPECT_EQ(OutputDescriptor((dir / "link.json").string()), std::nullopt);
  auto both = CheckOutputFiles({{"--json", "-"}, {"--junit", "/dev/stdout"}});
  ASSERT_TRUE(both.has_value());
  EXPECT_EQ(both->message, "--junit /dev/stdout and --json - cannot both write to stdout");
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
