// Goal: the scenario files a campaign covers (checker/campaign/scenario_files.h): files as named,
// directories expanded recursively to their *.yaml files in sorted order; an empty directory
// and a *.yaml symlink loop are errors naming the directory, never an exception.
// Method: a scratch tree under the test's temporary directory.
#include "checker/campaign/scenario_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace repartsim::campaign {
namespace {
namespace scenario_files_test {

namespace fs = std::filesystem;

fs::path Scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("repartsim-scenario-files-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void Touch(const fs::path& file) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "name: x\n";
}

TEST(ScenarioFilesTest, DirectoriesExpandRecursivelyInSortedOrder) {
  const fs::path dir = Scratch("tree");
  Touch(dir / "b.yaml");
  Touch(dir / "a" / "z.yaml");
  Touch(dir / "a" / "notes.txt");
  std::string culprit;
  auto files = ScenarioFiles({"given.yaml", dir.string()}, &culprit);
  ASSERT_TRUE(files.ok()) << files.error().message;
  EXPECT_EQ(files.value(), (std::vector<std::string>{"given.yaml", (dir / "a" / "z.yaml").string(),
                                                     (dir / "b.yaml").string()}));
  EXPECT_TRUE(culprit.empty());
  fs::remove_all(dir);
}

TEST(ScenarioFilesTest, AnEmptyDirectoryAndASymlinkLoopAreErrors) {
  const fs::path empty = Scratch("empty");
  std::string culprit;
  auto none = ScenarioFiles({empty.string()}, &culprit);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "directory " + empty.string() + " holds no *.yaml scenario");
  EXPECT_EQ(culprit, empty.string());

  const fs::path loop = Scratch("loop");
  fs::create_symlink(loop / "l.yaml", loop / "l.yaml");  // points at itself
  culprit.clear();
  auto looped = ScenarioFiles({loop.string()}, &culprit);
  ASSERT_FALSE(looped.ok());
  EXPECT_EQ(looped.error().message.rfind("cannot read " + (loop / "l.yaml").string() + ": ", 0),
            0u);
  EXPECT_EQ(culprit, loop.string());
  fs::remove_all(empty);
  fs::remove_all(loop);
}

TEST(ScenarioFilesTest, ADanglingScenarioLinkIsAnErrorNotSkipped) {
  const fs::path dir = Scratch("dangling");
  std::ofstream(dir / "a.yaml") << "name: a\n";
  fs::create_symlink(dir / "gone.yaml", dir / "b.yaml");
  std::string culprit;
  auto files = ScenarioFiles({dir.string()}, &culprit);
  ASSERT_FALSE(files.ok());
  EXPECT_EQ(files.error().message,
            "cannot read " + (dir / "b.yaml").string() + ": No such file or directory");
  EXPECT_EQ(culprit, dir.string());
  fs::remove(dir / "b.yaml");
  ASSERT_EQ(::mkfifo((dir / "c.yaml").c_str(), 0600), 0);
  auto fifo = ScenarioFiles({dir.string()}, &culprit);
  ASSERT_FALSE(fifo.ok());
  EXPECT_EQ(fifo.error().message,
            "cannot read " + (dir / "c.yaml").string() + ": not a regular file");
  fs::remove_all(dir);
}

}  // namespace scenario_files_test
}  // namespace
}  // namespace repartsim::campaign
