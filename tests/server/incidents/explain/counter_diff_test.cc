// File: tests/server/incidents/explain/counter_diff_test.cc
#include "server/incidents/explain/counter_diff.h"

#include <gtest/gtest.h>

namespace warpwatch::server::incidents {
namespace {

constexpr const char* kCounterDiffDram = "dram__throughput.avg.pct_of_peak_sustained_elapsed";

v1::Measurement WithCounter(const std::string& name, double value) {
  v1::Measurement m;
  (*m.mutable_counters())[name] = value;
  return m;
}

TEST(CounterDiffTest, ABaselineWithoutCountersSaysSoInsteadOfADiff) {
  const CounterDiff diff =
      DiffCounters({v1::Measurement(), v1::Measurement()}, WithCounter(kCounterDiffDram, 71));
  EXPECT_TRUE(diff.counters.empty());
  EXPECT_NE(diff.note.find("the baseline runs have no counters"), std::string::npos) << diff.note;
}

TEST(CounterDiffTest, ANewRunWithoutCountersSaysSo) {
  v1::Measurement now;
  now.set_counters_note("counter pass skipped");
  const CounterDiff diff = DiffCounters({WithCounter(kCounterDiffDram, 84)}, now);
  EXPECT_TRUE(diff.counters.empty());
  EXPECT_EQ(diff.note, "the new run has no counters (counter pass skipped): no counter diff");
}

TEST(CounterDiffTest, AMovedCounterIsListedAgainstTheBaselineMean) {
  const CounterDiff diff =
      DiffCounters({WithCounter(kCounterDiffDram, 82), WithCounter(kCounterDiffDram, 86)},
                   WithCounter(kCounterDiffDram, 71));
  ASSERT_EQ(diff.counters.size(), 1u);
  EXPECT_EQ(diff.counters[0].counter(), kCounterDiffDram);
  EXPECT_DOUBLE_EQ(diff.counters[0].baseline(), 84);
  EXPECT_DOUBLE_EQ(diff.counters[0].new_value(), 71);
  EXPECT_NEAR(diff.counters[0].change(), 71.0 / 84 - 1, 1e-12);
  EXPECT_TRUE(diff.note.empty());
}

TEST(CounterDiffTest, CountersWithinTwoPercentAreEqual) {
  const CounterDiff diff =
      DiffCounters({WithCounter(kCounterDiffDram, 84)}, WithCounter(kCounterDiffDram, 84.5));
  EXPECT_TRUE(diff.counters.empty());
  EXPECT_EQ(diff.note, "counters equal within 2 %");
}

// A counter that was 0 in the baseline (e.g. local-memory traffic before spills) has no relative
// change; it moved most, so it comes first.
TEST(CounterDiffTest, ACounterRisingFromZeroComesFirst) {
  constexpr const char* kLocal = "lts__t_sectors_srcunit_tex_aperture_local.sum";
  v1::Measurement base = WithCounter(kCounterDiffDram, 84);
  (*base.mutable_counters())[kLocal] = 0;
  v1::Measurement now = WithCounter(kCounterDiffDram, 42);
  (*now.mutable_counters())[kLocal] = 1.5e6;
  const CounterDiff diff = DiffCounters({base}, now);
  ASSERT_EQ(diff.counters.size(), 2u);
  EXPECT_EQ(diff.counters[0].counter(), kLocal);
  EXPECT_EQ(diff.counters[0].baseline(), 0);
  EXPECT_EQ(diff.counters[1].counter(), kCounterDiffDram);
}

}  // namespace
}  // namespace warpwatch::server::incidents
