// Tests of the per-sample SM clock from clock stamps.
#include "worker/stats/clock_estimate.h"

#include <gtest/gtest.h>

#include <vector>

namespace warpwatch::worker {
namespace {

TEST(ClockEstimate, LongSamplesGetTheirOwnClock) {
  // 1 ms at 1980 MHz, then 1 ms at 1500 MHz.
  std::vector<double> mhz = EstimateSampleClocksMhz({1.98e6, 1.5e6}, {1e6, 1e6}, 200e3);
  ASSERT_EQ(mhz.size(), 2u);
  EXPECT_DOUBLE_EQ(mhz[0], 1980);
  EXPECT_DOUBLE_EQ(mhz[1], 1500);
}

TEST(ClockEstimate, ShortSamplesArePooledUntilTheWindowIsFull) {
  // 10 us samples whose timer steps of 1 us make each one read 1800 or 2200 MHz on its own; the
  // pool of 20 (200 us) reads their true 1980.
  std::vector<double> cycles;
  std::vector<double> ns;
  for (int i = 0; i < 40; ++i) {
    cycles.push_back(19800);
    ns.push_back(i % 2 ? 11000 : 9000);
  }
  std::vector<double> mhz = EstimateSampleClocksMhz(cycles, ns, 200e3);
  ASSERT_EQ(mhz.size(), 40u);
  for (double m : mhz) EXPECT_DOUBLE_EQ(m, 1980);
}

TEST(ClockEstimate, ShortTailJoinsThePoolBeforeIt) {
  std::vector<double> mhz =
      EstimateSampleClocksMhz({200e3, 200e3, 100e3}, {100e3, 100e3, 50e3}, 200e3);
  ASSERT_EQ(mhz.size(), 3u);
  EXPECT_DOUBLE_EQ(mhz[2], mhz[0]);
  EXPECT_DOUBLE_EQ(mhz[0], 2000);
}

TEST(ClockEstimate, UnknownIntervalsStayZeroAndDoNotJoinAPool) {
  std::vector<double> mhz = EstimateSampleClocksMhz({1.98e6, 0, 1.98e6}, {1e6, 0, 1e6}, 200e3);
  EXPECT_DOUBLE_EQ(mhz[0], 1980);
  EXPECT_DOUBLE_EQ(mhz[1], 0);
  EXPECT_DOUBLE_EQ(mhz[2], 1980);
}

TEST(ClockEstimate, EmptyInputGivesNoClocks) {
  EXPECT_TRUE(EstimateSampleClocksMhz({}, {}).empty());
}

}  // namespace
}  // namespace warpwatch::worker
