// Shared by the History tests (tests/model/node/history_test.cc) and the retention tests
// (tests/checker/run/history_retention_test.cc): short rows, the rows an acceptance stands
// for, and a History holding write 1 with rows 1, 2, 3, 2.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/node/history.h"

namespace repartsim::model::history_fixture {

inline Row R(int64_t a) { return Row{Value::Int(a), Value::String("h")}; }

inline std::vector<Row> Rows(const History& h, const Acceptance& a) {
  std::vector<Row> out;
  h.ForEachAcceptedRow(a, [&](const Row& row) { out.push_back(row); });
  return out;
}

class HistoryAcceptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteRecord& w = history.writes.emplace_back();
    w.id = 1;
    w.rows = {R(1), R(2), R(3), R(2)};
  }
  History history;
  const NodeId node{1};
  const RegionId region{RegionId::Of(TableId{1024}, RegionNumber{0})};
};

}  // namespace repartsim::model::history_fixture
