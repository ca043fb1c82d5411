// Tests of throughput figures.
#include "worker/stats/throughput.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace warpwatch::worker
