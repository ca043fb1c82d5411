// File: tests/server/incidents/explain/counter_diff_test.cc
#include "server/incidents/explain/counter_diff.h"

#include <gtest/gtest.h>

namespace warpwatch::server::incidents {
namespace {

constexpr const char* kDram = "dram__throughput.avg.pct_of_peak_sustained_elapsed";

v1::Measurement WithCounter(const std::string& name, double value) {
  v1::Measurement m;
  (*m.mutable_counters())[name] = value;
  return m;
}

TEST(CounterDiffTest, ABaselineWithoutCountersSaysSoInsteadOfADiff) {
  const CounterDiff diff =
      DiffCounters({v1::Measurement(), v1::Measurement()}, WithCounter(kDram, 71));
  EXPECT_TRUE(diff.counters.empty());
  EXPECT_NE(diff.note.find("the baseline runs have no counters"), std::string::npos) << diff.note;
}

TEST(CounterDiffTest, ANewRunWithoutCountersSaysSo) {
  v1::Measurement now;
  now.set_counters_note("counter pass skipped");
  const CounterDiff diff = DiffCounters({WithCounter(kDram, 84)}, now);
  EXPECT_TRUE(diff.counters.empty());
  EXPECT_EQ(diff.note, "the new run has no counters (counter pass skipped): no counter diff");
}

TEST(CounterDiffTest, AMovedCounterIsListedAgainstTheBaselineMean) {
  const CounterDiff diff =
      DiffCounters({WithCounter(kDram, 82), WithCounter(kDram, 86)}, WithCounter(kDram, 71));
  ASSERT_EQ(diff.counters.size(), 1u);
  EXPECT_EQ(diff.counters[0].counter(), kDram);
  EXPECT_DOUBLE_EQ(diff.counters[0].baseline(), 84);
  EXPECT_DOUBLE_EQ(diff.counters[0].new_value(), 71);
  EXPECT_NEAR(diff.counters[0].change(), 71.0 / 84 - 1, 1e-12);
  EXPECT_TRUE(diff.note.empty());
}

TEST(CounterDiffTest, CountersWithinTwoPercentAreEqual) {
  const CounterDiff diff = DiffCounters({WithCounter(kDram, 84)}, WithCounter(kDram, 84.5));
  EXPECT_TRUE(diff.counters.empty());
  EXPECT_EQ(diff.note, "counters equal within 2 %");
}

}  // namespace
}  // namespace warpwatch::server::incidents
