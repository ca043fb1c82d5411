// Tests of the clock a GPU is set to run at.
#include "worker/device/clock_setting.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

// An H100 SXM as shipped: application clocks at their default, free to boost to 1980 MHz.
TEST(ClockSetting, DefaultApplicationClocksMeanTheMaximumBoostClock) {
  ClockSetting s = ResolveClockSetting({1980, 1755, 1755});
  EXPECT_EQ(s.policy, ClockPolicy::kBoost);
  EXPECT_EQ(s.sm_clock_mhz, 1980);
}

TEST(ClockSetting, ApplicationClocksAwayFromTheirDefaultAreTheSetting) {
  ClockSetting s = ResolveClockSetting({1980, 1500, 1755});
  EXPECT_EQ(s.policy, ClockPolicy::kApplications);
  EXPECT_EQ(s.sm_clock_mhz, 1500);
  EXPECT_EQ(ClockPolicyName(s.policy), "applications");
}

TEST(ClockSetting, UnreadableApplicationClocksMeanTheMaximum) {
  EXPECT_EQ(ResolveClockSetting({1980, 0, 1755}).policy, ClockPolicy::kBoost);
  EXPECT_EQ(ResolveClockSetting({1980, 1500, 0}).sm_clock_mhz, 1980);
}

TEST(ClockSetting, NothingKnownIsUnknown) {
  ClockSetting s = ResolveClockSetting({});
  EXPECT_EQ(s.policy, ClockPolicy::kUnknown);
  EXPECT_EQ(s.sm_clock_mhz, 0);
  EXPECT_EQ(ClockPolicyName(s.policy), "unknown");
}

}  // namespace
}  // namespace warpwatch::worker
