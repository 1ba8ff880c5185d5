// Goal: JsonText turns any JSON value into valid UTF-8 text, including strings holding bytes
// that are not UTF-8 (file names from the file system), which dump() alone refuses by throwing.
#include "sim/json_text.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/utf8.h"

namespace repartsim::sim {
namespace {

TEST(JsonTextTest, ReplacesInvalidBytesInsteadOfThrowing) {
  const nlohmann::json j = {{"path", "u/caf\xe9.yaml"}};
  EXPECT_THROW((void)j.dump(), nlohmann::json::type_error);
  const std::string text = JsonText(j);
  EXPECT_EQ(text, "{\"path\":\"u/caf\xef\xbf\xbd.yaml\"}");
  EXPECT_EQ(FirstInvalidUtf8(text), std::nullopt);
  EXPECT_EQ(nlohmann::json::parse(text)["path"], "u/caf\xef\xbf\xbd.yaml");
}

TEST(JsonTextTest, IndentsLikeDump) {
  const nlohmann::json j = {{"a", 1}, {"b", "caf\xc3\xa9"}};
  EXPECT_EQ(JsonText(j), j.dump());
  EXPECT_EQ(JsonText(j, 1), j.dump(1));
  EXPECT_EQ(JsonText(j, 2), j.dump(2));
}

TEST(JsonTextTest, KeepsTheKeyOrderOfAnOrderedValue) {
  nlohmann::ordered_json j;
  j["version"] = 1;
  j["binary"] = "caf\xe9";
  EXPECT_EQ(JsonText(j), "{\"version\":1,\"binary\":\"caf\xef\xbf\xbd\"}");
}

TEST(JsonTextTest, JsonSafeIsWhatAReportReadsBack) {
  EXPECT_EQ(JsonSafe("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(JsonSafe("caf\xe9.yaml"), "caf\xef\xbf\xbd.yaml");
  for (const char* name : {"a\xff", "\xe2\x82", "ok", "\xc0\xaf/x"}) {
    const std::string read =
        nlohmann::json::parse(JsonText(nlohmann::json(name))).get<std::string>();
    EXPECT_EQ(JsonSafe(name), read) << name;
  }
}

}  // namespace
}  // namespace repartsim::sim
