// Tests of throughput figures and throttle marking.
#include "worker/stats/throughput.h"

#include <gtest/gtest.h>

#include "worker/stats/throttle.h"

namespace warpwatch::worker {
namespace {

TEST(Throughput, TheoreticalBandwidthOfAnH100Sxm) {
  // 2619 MHz HBM3, 5120-bit bus: 2 * 2.619e9 * 640 B = 3.352 TB/s.
  EXPECT_NEAR(TheoreticalBandwidth(2619000, 5120), 3.35232e12, 1e6);
  EXPECT_EQ(TheoreticalBandwidth(0, 5120), 0);
}

TEST(Throughput, RatesFromMedianTime) {
  Throughput t = ComputeThroughput(2e9, 1e9, 1e-3, 4e12);
  EXPECT_DOUBLE_EQ(t.gbps, 2000);
  EXPECT_DOUBLE_EQ(t.gflops, 1000);
  EXPECT_DOUBLE_EQ(t.pct_of_peak, 0.5);
  EXPECT_EQ(ComputeThroughput(1, 1, 0, 1).gbps, 0);
}

TEST(Throttle, ClockBelowNinetySevenPercentOfTheDeviceMaximumIsThrottled) {
  std::vector<bool> t = MarkThrottled({1980, 1872, 1925, 1964, 0}, {}, 1980);
  EXPECT_EQ(t, (std::vector<bool>{false, true, false, false, false}));
}

// The old rule judged each sample against the fastest sample of the same point, so a point that
// ran throttled from its first sample to its last passed as unthrottled.
TEST(Throttle, PointThrottledThroughoutIsFlaggedAgainstTheDeviceMaximum) {
  std::vector<bool> t = MarkThrottled({1400, 1410, 1405}, {}, 1980);
  EXPECT_EQ(t, (std::vector<bool>{true, true, true}));
}

TEST(Throttle, UnknownMaximumFallsBackToTheFastestSample) {
  std::vector<bool> t = MarkThrottled({1980, 1700, 1950}, {}, 0);
  EXPECT_EQ(t, (std::vector<bool>{false, true, false}));  // 1950 is 0.985 of 1980
}

TEST(Throttle, ReasonBitsOtherThanIdleAndApplicationClocksThrottle) {
  std::vector<bool> t = MarkThrottled({1980, 1980, 1980}, {0x1 | 0x2, 0x4, 0x40}, 1980);
  EXPECT_EQ(t, (std::vector<bool>{false, true, true}));
}

}  // namespace
}  // namespace warpwatch::worker
