// Goal: PackRows/UnpackRows give back exactly the rows packed (every value type, NULLs,
// empty and long strings, extreme integers, NaN and infinities), several packs laid end to end
// each read back with the bytes it used, and the packed form is compact.
// Method: hand-picked edge values, then 2,000 random row lists compared with operator==.
#include "model/partition/row_pack.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "sim/prng.h"

namespace repartsim::model {
namespace {
namespace row_pack_test {

std::vector<Row> RoundTrip(const std::vector<Row>& rows) {
  std::string packed;
  PackRows(rows, packed);
  size_t used = 0;
  std::vector<Row> out = UnpackRows(packed, &used);
  EXPECT_EQ(used, packed.size());
  return out;
}

TEST(RowPackTest, EdgeValuesComeBackExactly) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<Row> rows = {
      {Value::Null(), Value::Bool(true), Value::Bool(false)},
      {Value::Int(std::numeric_limits<int64_t>::min()), Value::Int(-1), Value::Int(0),
       Value::Int(std::numeric_limits<int64_t>::max())},
      {Value::UInt(std::numeric_limits<uint64_t>::max()), Value::UInt(0)},
      {Value::Double(nan), Value::Double(-std::numeric_limits<double>::infinity()),
       Value::Double(1.5), Value::Double(-0.0)},
      {Value::String(""), Value::String(std::string(300, 'x')),
       Value::String(std::string("it's\n\0", 6))},
      {Value::Timestamp(-5), Value::Timestamp(1700000000000)},
      {},
  };
  EXPECT_EQ(RoundTrip(rows), rows);
  EXPECT_EQ(RoundTrip({}), std::vector<Row>{});
}

TEST(RowPackTest, PacksLaidEndToEndAreReadOneByOne) {
  const std::vector<Row> a = {{Value::String("h0"), Value::Timestamp(1), Value::Int(7)}};
  const std::vector<Row> b = {{Value::String("h1"), Value::Timestamp(2), Value::Int(8)},
                              {Value::String("h2"), Value::Timestamp(3), Value::Null()}};
  std::string packed;
  PackRows(a, packed);
  const size_t first = packed.size();
  PackRows(b, packed);
  size_t used = 0;
  EXPECT_EQ(UnpackRows(packed, &used), a);
  EXPECT_EQ(used, first);
  EXPECT_EQ(UnpackRows(std::string_view(packed).substr(first), &used), b);
  EXPECT_EQ(used, packed.size() - first);
  // A row of a short string, a timestamp, a small integer and a double: the counts (2), the
  // string (1 + 1 + 2), the varints (1 + 1 each) and the double (1 + 8).
  std::string one;
  PackRows({{Value::String("h0"), Value::Timestamp(1), Value::Int(-7), Value::Double(0.5)}}, one);
  EXPECT_EQ(one.size(), 2u + 4u + 2u + 2u + 9u);
}

TEST(RowPackTest, RandomRowsComeBackExactly) {
  sim::Prng prng(3);
  for (int round = 0; round < 2000; ++round) {
    std::vector<Row> rows(prng.Below(4));
    for (Row& row : rows) {
      row.resize(prng.Below(6));
      for (Value& v : row) {
        const uint64_t bits = prng.Next();
        switch (prng.Below(7)) {
          case 0:
            break;  // NULL
          case 1:
            v = Value::Bool(bits & 1);
            break;
          case 2:
            v = Value::Int(static_cast<int64_t>(bits));
            break;
          case 3:
            v = Value::UInt(bits);
            break;
          case 4: {
            double d = 0;
            static_assert(sizeof d == sizeof bits);
            std::memcpy(&d, &bits, sizeof d);
            v = Value::Double(d);
            break;
          }
          case 5:
            v = Value::String(std::string(prng.Below(200), static_cast<char>(bits)));
            break;
          default:
            v = Value::Timestamp(static_cast<int64_t>(bits));
        }
      }
    }
    ASSERT_EQ(RoundTrip(rows), rows) << "round " << round;
  }
}

}  // namespace row_pack_test
}  // namespace
}  // namespace repartsim::model
