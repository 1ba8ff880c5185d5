// Goal: pin the row and identity renderings used in every violation record.
// Method: render rows with NULLs, quotes and a time index inside or outside the primary key.
#include "checker/check/row_text.h"

#include <gtest/gtest.h>

#include "tests/checker/check/test_schema.h"

namespace repartsim::check {
namespace {
namespace row_text_test {

using testing_schema::R;
using testing_schema::Schema;

TEST(RowTextTest, RendersSqlLiteralsByColumnName) {
  EXPECT_EQ(RenderRow(Schema(), R("it's", 1000, -3)), "(host='it''s', ts=1000, v=-3)");
  EXPECT_EQ(RenderRow(Schema(), R(nullptr, 0, 0)), "(host=NULL, ts=0, v=0)");
}

TEST(RowTextTest, IdentityIsPrimaryKeyThenTimeIndexOnce) {
  model::TableSchema schema = Schema();
  EXPECT_EQ(IdentityColumns(schema), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(RenderIdentity(schema, R("a", 5, 9)), "(host='a', ts=5)");
  schema.primary_key = {1, 0};  // time index already in the key: not repeated
  EXPECT_EQ(IdentityColumns(schema), (std::vector<size_t>{1, 0}));
  EXPECT_EQ(RenderIdentity(schema, R("a", 5, 9)), "(ts=5, host='a')");
}

}  // namespace row_text_test
}  // namespace
}  // namespace repartsim::check
