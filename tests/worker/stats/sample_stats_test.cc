// Tests of worker/stats/sample_stats.
#include "worker/stats/sample_stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace warpwatch::worker {
namespace {

TEST(SampleStats, SummarisesKnownSamples) {
  // 1..10: mean 5.5, sample stddev sqrt(55/6) = 3.02765, median 5.5, p10 1.9, p90 9.1.
  std::vector<double> s = {3, 1, 4, 10, 5, 9, 2, 6, 8, 7};
  v1::SampleStats st = ComputeSampleStats(s);
  EXPECT_DOUBLE_EQ(st.mean(), 5.5);
  EXPECT_DOUBLE_EQ(st.median(), 5.5);
  EXPECT_DOUBLE_EQ(st.min(), 1);
  EXPECT_DOUBLE_EQ(st.max(), 10);
  EXPECT_NEAR(st.stddev(), std::sqrt(55.0 / 6.0), 1e-12);
  EXPECT_NEAR(st.p10(), 1.9, 1e-12);
  EXPECT_NEAR(st.p90(), 9.1, 1e-12);
  EXPECT_NEAR(st.rel_stderr(), std::sqrt(55.0 / 6.0) / std::sqrt(10.0) / 5.5, 1e-12);
}

TEST(SampleStats, EmptyInputIsAllZeros) {
  v1::SampleStats st = ComputeSampleStats({});
  EXPECT_EQ(st.median(), 0);
  EXPECT_EQ(st.rel_stderr(), 0);
}

TEST(SampleStats, SingleSampleHasNoSpread) {
  v1::SampleStats st = ComputeSampleStats({2e-3});
  EXPECT_DOUBLE_EQ(st.median(), 2e-3);
  EXPECT_DOUBLE_EQ(st.p10(), 2e-3);
  EXPECT_EQ(st.stddev(), 0);
  EXPECT_EQ(st.rel_stderr(), 0);
}

TEST(SampleStats, MedianOfOddCountIsTheMiddleSample) {
  EXPECT_DOUBLE_EQ(Percentile({5, 1, 3}, 50), 3);
}

}  // namespace
}  // namespace warpwatch::worker
