// Tests of the sample-derived fields of a Measurement.
#include "worker/engine/sample_summary.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

TEST(SampleSummary, FillsSamplesClocksThrottleAndThroughput) {
  SamplingResult sampling;
  sampling.samples = {1e-3, 2e-3, 1e-3, 1e-3};
  sampling.stop_reason = kStopNoise;
  SampleContext ctx;
  ctx.clocks_mhz = {1980, 1980, 1500, 0};
  ctx.bytes = 2e9;
  ctx.flops = 0;
  ctx.peak_bytes_per_second = 4e12;
  ctx.max_clock_mhz = 1980;
  v1::Measurement m;
  SummarizeSamples(sampling, ctx, &m);
  ASSERT_EQ(m.samples_seconds_size(), 4);
  ASSERT_EQ(m.sample_sm_clock_mhz_size(), 4);
  EXPECT_EQ(m.sample_throttled(2), true);
  EXPECT_EQ(m.sample_throttled(3), false);  // unknown clock: not judged
  EXPECT_DOUBLE_EQ(m.throttled_fraction(), 0.25);
  EXPECT_DOUBLE_EQ(m.median_sm_clock_mhz(), 1980);
  EXPECT_DOUBLE_EQ(m.stats().median(), 1e-3);
  EXPECT_DOUBLE_EQ(m.gbps(), 2000);
  EXPECT_DOUBLE_EQ(m.pct_of_peak_bandwidth(), 0.5);
  EXPECT_EQ(m.stop_reason(), "noise");
  EXPECT_GT(m.rel_stddev(), 0.3);  // 1, 2, 1, 1 ms: stddev 0.5 / mean 1.25
}

TEST(SampleSummary, MissingClocksAreZeros) {
  SamplingResult sampling;
  sampling.samples = {1e-3, 1e-3};
  v1::Measurement m;
  SummarizeSamples(sampling, SampleContext{}, &m);
  EXPECT_EQ(m.sample_sm_clock_mhz(1), 0);
  EXPECT_EQ(m.median_sm_clock_mhz(), 0);
  EXPECT_EQ(m.throttled_fraction(), 0);
}

}  // namespace
}  // namespace warpwatch::worker
