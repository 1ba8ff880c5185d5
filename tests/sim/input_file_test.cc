// Goal: sim::ReadInputFile reads a whole file, and refuses, with the located message its
// contract names, a missing file, a directory, a regular file over the limit and a device
// that never ends, reading no more than the limit plus one byte.
// Method: files written to a scratch directory; /dev/zero as the endless device.
#include "sim/input_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace repartsim::sim {
namespace {
namespace input_file_test {

class InputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("repartsim-input-file-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::filesystem::path dir_;
};

// Issue 54 (R17): a FIFO opened before its writer read as empty ("empty scenario"): the
// first read waits for the writer's bytes.
TEST_F(InputFileTest, AFifoIsReadFromItsWriterWhoComesLater) {
  const std::string path = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const pid_t writer = ::fork();
  ASSERT_GE(writer, 0);
  if (writer == 0) {
    ::alarm(10);        // a reader that gave up leaves the open below blocked: end anyway
    ::usleep(300'000);  // the reader has opened the FIFO by now
    const int fd = ::open(path.c_str(), O_WRONLY);
    const bool wrote = fd >= 0 && ::write(fd, "name: x\n", 8) == 8;
    ::_exit(wrote ? 0 : 1);
  }
  auto text = ReadInputFile(path, 100, "thing");
  int status = 0;
  ::waitpid(writer, &status, 0);
  EXPECT_EQ(status, 0);
  ASSERT_TRUE(text.ok()) << text.error().Format();
  EXPECT_EQ(text.value(), "name: x\n");
}

TEST_F(InputFileTest, ReadsAWholeFileUpToTheLimit) {
  const std::string path = Write("a.txt", std::string(100, 'x') + "\n\0end");
  auto text = ReadInputFile(path, 105, "thing");
  ASSERT_TRUE(text.ok()) << text.error().Format();
  EXPECT_EQ(text.value(), std::string(100, 'x') + "\n\0end");
  auto empty = ReadInputFile(Write("e.txt", ""), 1, "thing");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty.value(), "");
}

TEST_F(InputFileTest, RefusesWhatIsNotAFileWithinTheLimit) {
  const std::string path = Write("big.txt", std::string(11, 'x'));
  auto big = ReadInputFile(path, 10, "scenario file");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().Format(),
            path + ": error: scenario file of 11 bytes exceeds the limit of 10 bytes");
  auto dir = ReadInputFile(dir_.string(), 10, "scenario file");
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error().Format(), dir_.string() + ": error: is a directory, not a scenario file");
  auto missing = ReadInputFile((dir_ / "none").string(), 10, "SQL file");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().Format(),
            (dir_ / "none").string() + ": error: cannot read SQL file: No such file or directory");
  auto endless = ReadInputFile("/dev/zero", 1000, "sweep report");
  ASSERT_FALSE(endless.ok());
  EXPECT_EQ(endless.error().Format(),
            "/dev/zero: error: sweep report is longer than the limit of 1000 bytes");
}

}  // namespace input_file_test
}  // namespace
}  // namespace repartsim::sim
