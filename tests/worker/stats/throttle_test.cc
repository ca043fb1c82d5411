// Tests of throttle marking: samples judged against the clock the GPU is set to run at and the
// driver's clocks-event reasons.
#include "worker/stats/throttle.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

constexpr uint64_t kGpuIdle = 0x1;
constexpr uint64_t kApplicationsClocksSetting = 0x2;  // also locked clocks (UserDefinedClocks)
constexpr uint64_t kSwPowerCap = 0x4;
constexpr uint64_t kSwThermalSlowdown = 0x20;
constexpr uint64_t kHwThermalSlowdown = 0x40;

TEST(Throttle, ClockBelowNinetySevenPercentOfTheSettingIsThrottled) {
  std::vector<bool> t = MarkThrottled({1980, 1872, 1925, 1964, 0}, {}, 1980);
  EXPECT_EQ(t, (std::vector<bool>{false, true, false, false, false}));
}

// The old rule judged each sample against the fastest sample of the same point, so a point that
// ran throttled from its first sample to its last passed as unthrottled.
TEST(Throttle, PointThrottledThroughoutIsFlaggedAgainstTheSetting) {
  std::vector<bool> t = MarkThrottled({1400, 1410, 1405}, {}, 1980);
  EXPECT_EQ(t, (std::vector<bool>{true, true, true}));
}

TEST(Throttle, UnknownSettingFallsBackToTheFastestSample) {
  std::vector<bool> t = MarkThrottled({1980, 1700, 1950}, {}, 0);
  EXPECT_EQ(t, (std::vector<bool>{false, true, false}));  // 1950 is 0.985 of 1980
}

TEST(Throttle, SlowdownReasonsThrottleAtAnyClock) {
  std::vector<bool> t = MarkThrottled(
      {1980, 1980, 1980, 1980},
      {kGpuIdle | kApplicationsClocksSetting, kSwPowerCap, kHwThermalSlowdown, kSwThermalSlowdown},
      1980);
  EXPECT_EQ(t, (std::vector<bool>{false, true, true, true}));
}

// A GPU locked at 1410 MHz (nvidia-smi -lgc 1410) reports the applications-clocks reason while it
// runs there: its setting, not a throttle, although 1410 is 0.71 of the 1980 MHz maximum.
TEST(Throttle, ClockHeldAtALockedSettingIsNotThrottled) {
  std::vector<bool> t =
      MarkThrottled({1410, 1410, 1395}, std::vector<uint64_t>(3, kApplicationsClocksSetting), 1980);
  EXPECT_EQ(t, (std::vector<bool>{false, false, false}));
}

// Held samples are judged against the clock they are held at: one that ran 8 % below its locked
// twins was pulled below the setting.
TEST(Throttle, LockedGpuPulledBelowItsHeldClockIsThrottled) {
  std::vector<bool> t =
      MarkThrottled({1410, 1300, 1410}, std::vector<uint64_t>(3, kApplicationsClocksSetting), 1980);
  EXPECT_EQ(t, (std::vector<bool>{false, true, false}));
}

TEST(Throttle, LockedGpuThatHitsItsPowerCapIsThrottled) {
  std::vector<bool> t = MarkThrottled(
      {1410, 1410}, {kApplicationsClocksSetting, kApplicationsClocksSetting | kSwPowerCap}, 1980);
  EXPECT_EQ(t, (std::vector<bool>{false, true}));
}

// Application clocks set to 1500 MHz: 1500 is the setting, 1440 (0.96) is below it.
TEST(Throttle, ApplicationClocksAreTheReferenceWhenSet) {
  std::vector<bool> t = MarkThrottled({1500, 1440, 1500}, {}, 1500);
  EXPECT_EQ(t, (std::vector<bool>{false, true, false}));
}

TEST(Throttle, UnknownClockWithoutReasonIsNotJudged) {
  std::vector<bool> t = MarkThrottled({0, 0}, {0, kSwPowerCap}, 1980);
  EXPECT_EQ(t, (std::vector<bool>{false, true}));
}

TEST(Throttle, SlowdownBitsAreEverythingButIdleAndSettings) {
  EXPECT_FALSE(IsSlowdown(0));
  EXPECT_FALSE(IsSlowdown(kGpuIdle | kApplicationsClocksSetting | 0x100));
  for (uint64_t bit : {0x4, 0x8, 0x10, 0x20, 0x40, 0x80, 0x200}) {
    EXPECT_TRUE(IsSlowdown(bit)) << bit;
  }
}

}  // namespace
}  // namespace warpwatch::worker
