// Goal: pin typed values' order (NULL first), equality, SQL/display forms and conversion
// errors. Method: direct calls on hand-picked values, asserting exact results and texts.
#include "model/partition/value.h"

#include <gtest/gtest.h>

#include "model/partition/schema.h"
#include "sim/fingerprint.h"

namespace repartsim::model {
namespace {
namespace value_test {

TEST(ValueTest, NullSortsBeforeEveryValue) {
  EXPECT_EQ(CompareValues(Value::Null(), Value::Int(-5)).value(), -1);
  EXPECT_EQ(CompareValues(Value::String("a"), Value::Null()).value(), 1);
  EXPECT_EQ(CompareValues(Value::Null(), Value::Null()).value(), 0);
}

TEST(ValueTest, SameTypesCompareNaturally) {
  EXPECT_EQ(CompareValues(Value::Int(3), Value::Int(10)).value(), -1);
  EXPECT_EQ(CompareValues(Value::UInt(10), Value::UInt(3)).value(), 1);
  EXPECT_EQ(CompareValues(Value::String("b"), Value::String("ab")).value(), 1);
  EXPECT_EQ(CompareValues(Value::Double(-0.0), Value::Double(0.0)).value(), 0);
  EXPECT_EQ(CompareValues(Value::Double(1e308), Value::Double(0.0 / 0.0)).value(), -1);
  EXPECT_EQ(CompareValues(Value::Bool(false), Value::Bool(true)).value(), -1);
}

TEST(ValueTest, MixedTypesAreAnErrorNotACrash) {
  auto r = CompareValues(Value::Int(1), Value::String("x"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "cannot compare Int64 with String");
  EXPECT_EQ(CompareValues(Value::UInt(1), Value::Double(1)).error().message,
            "cannot compare UInt64 with Float64");
}

TEST(ValueTest, TotalOrderRanksTypesFirst) {
  EXPECT_LT(TotalOrder(Value::Null(), Value::Bool(false)), 0);
  EXPECT_LT(TotalOrder(Value::Int(100), Value::String("")), 0);
  EXPECT_GT(TotalOrder(Value::Timestamp(0), Value::String("z")), 0);
  EXPECT_EQ(TotalOrder(Value::Int(7), Value::Int(7)), 0);
}

TEST(ValueTest, EqualityIsStructural) {
  EXPECT_EQ(Value::Null(), Value::Null());
  EXPECT_NE(Value::Int(1), Value::UInt(1));
  EXPECT_EQ(Value::Double(-0.0), Value::Double(0.0));
}

TEST(ValueTest, SqlAndDisplayForms) {
  EXPECT_EQ(Value::String("it's").ToSql(), "'it''s'");
  EXPECT_EQ(Value::String("it's").ToDisplay(), "it's");
  EXPECT_EQ(Value::Double(1.5).ToSql(), "1.5");
  EXPECT_EQ(Value::Double(10).ToSql(), "10");
  EXPECT_EQ(Value::Timestamp(1700000000000).ToSql(), "1700000000000");
  EXPECT_EQ(Value::Bool(true).ToSql(), "true");
  EXPECT_EQ(Value::Null().ToSql(), "NULL");
  EXPECT_EQ(Value::Int(-3).ToDebug(), "Int64(-3)");
  EXPECT_EQ(Value::String("x").ToDebug(), "String(\"x\")");
}

TEST(ValueTest, ConversionToColumnTypesChecksRange) {
  EXPECT_EQ(ConvertToColumnType(Value::Int(5), ColumnType::kUInt8).value(), Value::UInt(5));
  EXPECT_EQ(ConvertToColumnType(Value::Int(300), ColumnType::kUInt8).error().message,
            "value 300 out of range for UInt8");
  EXPECT_EQ(ConvertToColumnType(Value::Int(-1), ColumnType::kUInt32).error().message,
            "value -1 out of range for UInt32");
  EXPECT_EQ(ConvertToColumnType(Value::String("x"), ColumnType::kInt32).error().message,
            "cannot convert 'x' to Int32");
  EXPECT_EQ(ConvertToColumnType(Value::Double(1.5), ColumnType::kInt64).error().message,
            "cannot convert 1.5 to Int64");
  EXPECT_EQ(ConvertToColumnType(Value::Int(2), ColumnType::kFloat64).value(), Value::Double(2));
  EXPECT_EQ(ConvertToColumnType(Value::Int(9), ColumnType::kTimestamp).value(),
            Value::Timestamp(9));
  EXPECT_TRUE(ConvertToColumnType(Value::Null(), ColumnType::kString).value().is_null());
}

TEST(ValueTest, HashSeparatesTypesAndIsStable) {
  auto hash = [](const Value& v) {
    sim::Hasher h;
    v.Hash(h);
    return h.Finish();
  };
  EXPECT_NE(hash(Value::Int(1)), hash(Value::UInt(1)));
  EXPECT_NE(hash(Value::String("a")), hash(Value::String("b")));
  EXPECT_EQ(hash(Value::Double(-0.0)), hash(Value::Double(0.0)));
  EXPECT_EQ(hash(Value::Timestamp(5)), hash(Value::Timestamp(5)));
}

}  // namespace value_test
}  // namespace
}  // namespace repartsim::model
