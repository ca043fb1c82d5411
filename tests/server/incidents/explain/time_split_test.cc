// File: tests/server/incidents/explain/time_split_test.cc
#include "server/incidents/explain/time_split.h"

#include <gtest/gtest.h>

namespace warpwatch::server::incidents {
namespace {

v1::Measurement KernelTime(double seconds, double throttled = 0) {
  v1::Measurement m;
  m.set_kernel_median_seconds(seconds);
  m.set_throttled_fraction(throttled);
  return m;
}

FindingTiming Timing(double change, std::optional<double> cycles) {
  FindingTiming t;
  t.change = change;
  t.cycles_change = cycles;
  t.baseline_sm_clock_mhz = 1980;
  t.new_sm_clock_mhz = 1980;
  return t;
}

TEST(TimeSplitTest, KernelTimeThatMovedWithTheEventTimeIsTheKernel) {
  const v1::TimeSplit s = SplitTime(Timing(0.06, 0.06), {KernelTime(1e-4)}, KernelTime(1.06e-4));
  EXPECT_EQ(s.where(), "kernel");
  EXPECT_NEAR(s.kernel_change(), 0.06, 1e-9);
}

TEST(TimeSplitTest, EventTimeMovingWithoutTheKernelIsAroundTheKernel) {
  const v1::TimeSplit s = SplitTime(Timing(0.06, 0.06), {KernelTime(1e-4)}, KernelTime(1.005e-4));
  EXPECT_EQ(s.where(), "around_kernel");
}

TEST(TimeSplitTest, WithoutKernelTimesTheSplitIsUnknownAndSaysWhy) {
  const v1::TimeSplit s = SplitTime(Timing(0.06, 0.06), {v1::Measurement()}, KernelTime(1e-4));
  EXPECT_EQ(s.where(), "unknown");
  EXPECT_FALSE(s.has_kernel_change());
  EXPECT_NE(s.note().find("baseline"), std::string::npos);
}

TEST(ClockSplitTest, TimeUpWithCyclesEqualIsTheClock) {
  FindingTiming t = Timing(0.24, 0.001);
  t.new_sm_clock_mhz = 1600;
  EXPECT_EQ(SplitClocks(t, {KernelTime(1e-4)}, KernelTime(1e-4)).verdict(), "clock");
}

TEST(ClockSplitTest, CyclesMovingWithTheTimeAreTheWork) {
  EXPECT_EQ(SplitClocks(Timing(0.05, 0.05), {KernelTime(1e-4)}, KernelTime(1e-4)).verdict(),
            "cycles");
}

TEST(ClockSplitTest, AThrottledNewRunIsThrottled) {
  EXPECT_EQ(SplitClocks(Timing(0.05, 0.05), {KernelTime(1e-4, 0)}, KernelTime(1e-4, 0.4)).verdict(),
            "throttled");
}

TEST(ClockSplitTest, WithoutCyclesTheClockSplitIsUnknown) {
  EXPECT_EQ(SplitClocks(Timing(0.05, std::nullopt), {}, KernelTime(1e-4)).verdict(), "unknown");
}

}  // namespace
}  // namespace warpwatch::server::incidents
