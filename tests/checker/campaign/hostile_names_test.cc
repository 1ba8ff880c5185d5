// Goal: a property test over the file names a person did not choose with care (issue 54): for
// every name of bytes a file system allows (any byte but '/' and NUL: non-UTF-8 bytes, spaces,
// quotes, backslashes, newlines, terminal escapes), the choice file header reads the name back
// exactly, the JSON writer gives valid UTF-8 that reads back as JsonSafe(name), the terminal
// form holds no control byte, and an output naming the same file as an input is refused.
// Method: 2,000 names drawn from a seeded sim::Prng, each checked in process; 40 of them are
// also created in a scratch directory for the output/input check.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "checker/campaign/choice_file.h"
#include "checker/campaign/output_files.h"
#include "sim/choice_list.h"
#include "sim/json_text.h"
#include "sim/prng.h"
#include "sim/utf8.h"

namespace repartsim::campaign {
namespace {
namespace hostile_names_test {

// A name of 1 to 24 bytes, none '/' or NUL; biased towards the bytes that broke writers.
std::string DrawName(sim::Prng& prng) {
  static const std::string kHostile = " \"'\\\n\t\r\x1b\x7f$`*?;&|<>()#~=,";
  std::string name;
  const uint64_t length = 1 + prng.Below(24);
  while (name.size() < length) {
    char c = 0;
    switch (prng.Below(4)) {
      case 0:
        c = static_cast<char>('a' + prng.Below(26));
        break;
      case 1:
        c = kHostile[prng.Below(kHostile.size())];
        break;
      case 2:
        c = static_cast<char>(0x80 + prng.Below(0x80));  // often not UTF-8
        break;
      default:
        c = static_cast<char>(1 + prng.Below(255));
    }
    if (c != '/' && c != '\0') name += c;
  }
  return name;
}

TEST(HostileNamesTest, EveryWriterKeepsOrSafelyReplacesAnyFileName) {
  sim::Prng prng(54);
  const std::string list = sim::ChoiceList().ToText();
  for (int i = 0; i < 2000; ++i) {
    const std::string name = DrawName(prng);
    auto file = ParseChoicesFile("# scenario=" + HeaderValue(name) + " seed=1\n" + list, "x");
    ASSERT_TRUE(file.ok()) << file.error().Format();
    EXPECT_EQ(file.value().scenario, name);
    EXPECT_EQ(file.value().seed, 1u);

    const std::string json = sim::JsonText(nlohmann::json{{"path", name}}, 1);
    EXPECT_EQ(sim::FirstInvalidUtf8(json), std::nullopt);
    EXPECT_EQ(nlohmann::json::parse(json)["path"].get<std::string>(), sim::JsonSafe(name));

    for (const char c : sim::VisibleText(name)) {
      EXPECT_TRUE(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) << i;
    }
  }
}

TEST(HostileNamesTest, AnOutputNamingAnInputIsRefusedWhateverItsName) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("repartsim-names-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  sim::Prng prng(4);
  for (int i = 0; i < 40; ++i) {
    const std::string name = DrawName(prng);
    if (name == "." || name == "..") continue;
    const std::string path = (dir / name).string();
    std::ofstream(path) << "x";
    ASSERT_TRUE(fs::exists(path)) << i;
    auto refused = CheckOutputFiles({{"--json", path}}, {path});
    ASSERT_TRUE(refused.has_value()) << i;
    EXPECT_EQ(refused->message, "--json names an input file (" + path +
                                    "): writing it would overwrite what is read; choose another "
                                    "name");
    auto other = CheckOutputFiles({{"--json", path + ".out"}}, {path});
    EXPECT_FALSE(other.has_value()) << i;
  }
  fs::remove_all(dir);
}

}  // namespace hostile_names_test
}  // namespace
}  // namespace repartsim::campaign
