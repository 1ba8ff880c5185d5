// Goal: the scan's merge of sorted runs (MergeSortedRuns) returns exactly what sorting every
// ref (MergeRefs) returns, with and without dedup, including equal keys and equal sequences
// across runs (files of other regions); a region's sorted memtable index holds every memtable
// row in RefBefore order and survives a copy of the region and a clear.
// Method: deterministic pseudo-random runs (sim::Prng), each sorted, compared ref for ref.
#include "model/datanode/row_merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "model/datanode/region.h"
#include "sim/prng.h"
#include "tests/model/datanode/datanode_fixture.h"

namespace repartsim::model {
namespace {
namespace row_merge_test {

using namespace testing;  // NOLINT

bool SameRefs(const std::vector<SeqRowRef>& a, const std::vector<SeqRowRef>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (*a[i].row != *b[i].row || a[i].sequence != b[i].sequence) return false;
  }
  return true;
}

TEST(RowMergeTest, MergingSortedRunsEqualsSortingAllRefs) {
  const TableSchema schema = TestSchema();
  sim::Prng prng(7);
  for (int round = 0; round < 200; ++round) {
    // Few distinct keys and sequences, so keys repeat within and across runs and some
    // (key, sequence) pairs repeat across runs with other values.
    const size_t run_count = 1 + prng.Below(4);
    std::vector<Row> rows;
    rows.reserve(200);
    std::vector<std::vector<SeqRowRef>> runs(run_count);
    for (auto& run : runs) {
      const size_t n = prng.Below(12);
      for (size_t i = 0; i < n; ++i) {
        rows.push_back(R(static_cast<int64_t>(prng.Below(3)), static_cast<int64_t>(prng.Below(3)),
                         static_cast<int64_t>(prng.Below(4))));
        run.push_back(SeqRowRef{&rows.back(), prng.Below(6)});
      }
      std::sort(run.begin(), run.end(),
                [&](const SeqRowRef& x, const SeqRowRef& y) { return RefBefore(schema, x, y); });
    }
    for (bool dedup : {false, true}) {
      std::vector<SeqRowRef> all;
      std::vector<size_t> starts;
      for (const auto& run : runs) {
        starts.push_back(all.size());
        all.insert(all.end(), run.begin(), run.end());
      }
      std::vector<SeqRowRef> sorted = all;
      MergeRefs(schema, sorted, dedup);
      MergeSortedRuns(schema, all, starts, dedup);
      ASSERT_TRUE(SameRefs(all, sorted)) << "round " << round << " dedup " << dedup;
    }
  }
}

TEST(RowMergeTest, UnsortedRunsAreNotWhatSortingGives) {
  // The precondition matters: a run out of order is merged as given (this is what the test
  // above would catch if the memtable index or a file were not sorted).
  const TableSchema schema = TestSchema();
  const Row a = R(1, 1, 1), b = R(2, 2, 2);
  std::vector<SeqRowRef> refs{{&b, 1}, {&a, 2}};
  std::vector<SeqRowRef> sorted = refs;
  MergeRefs(schema, sorted, true);
  MergeSortedRuns(schema, refs, {0}, true);
  EXPECT_FALSE(SameRefs(refs, sorted));
}

TEST(RowMergeTest, RegionMemtableIndexIsSortedCompleteAndSurvivesACopy) {
  RegionManifest manifest;
  manifest.region_id = kR1;
  manifest.schema = std::make_shared<const TableSchema>(TestSchema());
  Region region(manifest, RegionState::kWritable);
  region.AppendMemtable(MakeWriteBatch(1, 1, {R(5, 1, 1), R(1, 1, 2), R(5, 1, 3)}));
  region.AppendMemtable(MakeWriteBatch(2, 4, {R(3, 1, 4), R(1, 1, 5)}));
  Region copy = region;
  region.ClearMemtable();
  EXPECT_TRUE(region.memtable_sorted().empty());
  const auto& index = copy.memtable_sorted();
  ASSERT_EQ(index.size(), 5u);
  // (a=1 seq 5), (a=1 seq 2), (a=3 seq 4), (a=5 seq 3), (a=5 seq 1).
  std::vector<uint64_t> sequences;
  for (const SeqRowRef& r : index) sequences.push_back(r.sequence);
  EXPECT_EQ(sequences, (std::vector<uint64_t>{5, 2, 4, 3, 1}));
  EXPECT_EQ(*index[0].row, R(1, 1, 5));
  EXPECT_EQ(*index[4].row, R(5, 1, 1));
}

}  // namespace row_merge_test
}  // namespace
}  // namespace repartsim::model
