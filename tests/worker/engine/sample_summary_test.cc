// Tests of the sample-derived fields of a Measurement.
#include "worker/engine/sample_summary.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>

#include "worker/device/telemetry.h"

namespace warpwatch::worker {
namespace {

constexpr uint64_t kReasonAppClocks = 0x2;  // also reported for locked clocks
constexpr uint64_t kReasonSwPowerCap = 0x4;
constexpr uint64_t kSampleSummaryHwThermalSlowdown = 0x40;

// Telemetry of a scripted GPU: its clock setting and one reading per sample.
class SampleSummaryFakeTelemetry : public Telemetry {
 public:
  SampleSummaryFakeTelemetry(ClockSetting setting, std::deque<ClockReading> readings)
      : setting_(setting), readings_(std::move(readings)) {}
  std::string source() const override { return "fake"; }
  ClockReading ReadClock() override {
    ClockReading r = readings_.front();
    readings_.pop_front();
    return r;
  }
  DeviceConditions ReadConditions() override { return {}; }
  int MaxSmClockMhz() override { return 1980; }
  ClockSetting ReadClockSetting() override { return setting_; }
  int MaxMemoryClockMhz() override { return 2619; }
  std::string DriverVersion() override { return "580"; }

 private:
  ClockSetting setting_;
  std::deque<ClockReading> readings_;
};

ClockSetting Boost() { return {1980, ClockPolicy::kBoost}; }

// What the engine does with telemetry: one clock reading per sample, the setting per point.
v1::Measurement Summarize(Telemetry& telemetry, int samples) {
  SamplingResult sampling;
  SampleContext ctx;
  for (int i = 0; i < samples; ++i) {
    sampling.samples.push_back(1e-3);
    ClockReading r = telemetry.ReadClock();
    ctx.clocks_mhz.push_back(r.sm_clock_mhz);
    ctx.reasons.push_back(r.throttle_reasons);
  }
  ctx.setting_clock_mhz = telemetry.ReadClockSetting().sm_clock_mhz;
  v1::Measurement m;
  SummarizeSamples(sampling, ctx, &m);
  return m;
}

TEST(SampleSummaryThrottle, BoostingGpuAtItsMaximumIsNotThrottled) {
  SampleSummaryFakeTelemetry gpu(Boost(), {{1980, 0}, {1965, 0}, {1980, 0}, {1972, 0}});
  v1::Measurement m = Summarize(gpu, 4);
  EXPECT_EQ(m.throttled_fraction(), 0);
}

TEST(SampleSummaryThrottle, BoostingGpuThatDropsThreePercentIsThrottled) {
  SampleSummaryFakeTelemetry gpu(Boost(), {{1980, 0}, {1900, 0}, {1980, 0}, {1980, 0}});
  v1::Measurement m = Summarize(gpu, 4);
  EXPECT_TRUE(m.sample_throttled(1));
  EXPECT_DOUBLE_EQ(m.throttled_fraction(), 0.25);
}

// The fleet locks clocks at 1410 MHz: the setting NVML reports is still boost at 1980 (locked
// clocks are not readable), and the driver's reason says the clock follows the setting.
TEST(SampleSummaryThrottle, LockedGpuAtItsLockedClockIsNotThrottled) {
  std::deque<ClockReading> held(6, ClockReading{1410, kReasonAppClocks});
  SampleSummaryFakeTelemetry gpu(Boost(), held);
  v1::Measurement m = Summarize(gpu, 6);
  EXPECT_EQ(m.throttled_fraction(), 0);
  EXPECT_DOUBLE_EQ(m.median_sm_clock_mhz(), 1410);
}

TEST(SampleSummaryThrottle, ApplicationClocksGpuAtItsSettingIsNotThrottled) {
  SampleSummaryFakeTelemetry gpu({1500, ClockPolicy::kApplications},
                                 {{1500, 0}, {1500, 0}, {1440, 0}});
  v1::Measurement m = Summarize(gpu, 3);
  EXPECT_EQ(m.sample_throttled(0), false);
  EXPECT_EQ(m.sample_throttled(2), true);  // 0.96 of its setting
}

TEST(SampleSummaryThrottle, PowerCappedGpuPulledBelowItsSettingIsThrottled) {
  SampleSummaryFakeTelemetry gpu(
      Boost(), {{1980, 0}, {1755, kReasonSwPowerCap}, {1710, kReasonSwPowerCap}, {1980, 0}});
  v1::Measurement m = Summarize(gpu, 4);
  EXPECT_EQ(m.sample_throttled(1), true);
  EXPECT_EQ(m.sample_throttled(2), true);
  EXPECT_DOUBLE_EQ(m.throttled_fraction(), 0.5);
}

TEST(SampleSummaryThrottle, LockedGpuUnderAPowerCapIsThrottled) {
  SampleSummaryFakeTelemetry gpu(
      Boost(), {{1410, kReasonAppClocks}, {1350, kReasonAppClocks | kReasonSwPowerCap}});
  v1::Measurement m = Summarize(gpu, 2);
  EXPECT_EQ(m.sample_throttled(0), false);
  EXPECT_EQ(m.sample_throttled(1), true);
}

TEST(SampleSummaryThrottle, ThermalSlowdownIsThrottledEvenNearTheSetting) {
  SampleSummaryFakeTelemetry gpu(Boost(), {{1980, 0}, {1965, kSampleSummaryHwThermalSlowdown}});
  v1::Measurement m = Summarize(gpu, 2);
  EXPECT_EQ(m.sample_throttled(0), false);
  EXPECT_EQ(m.sample_throttled(1), true);
}

TEST(SampleSummary, FillsSamplesClocksThrottleAndThroughput) {
  SamplingResult sampling;
  sampling.samples = {1e-3, 2e-3, 1e-3, 1e-3};
  sampling.stop_reason = kStopNoise;
  SampleContext ctx;
  ctx.clocks_mhz = {1980, 1980, 1500, 0};
  ctx.bytes = 2e9;
  ctx.flops = 0;
  ctx.peak_bytes_per_second = 4e12;
  ctx.setting_clock_mhz = 1980;
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

namespace warpwatch::worker {
namespace {

TEST(SampleSummaryBusBandwidth, BusBytesOverTheMedianIsTheBusBandwidth) {
  SamplingResult sampling;
  sampling.samples = {4e-3, 5e-3, 6e-3};
  SampleContext ctx;
  ctx.bytes = 1 << 30;
  ctx.bus_bytes = 1.5 * (1 << 30);  // all_reduce on 4 GPUs: 2(n-1)/n = 1.5
  v1::Measurement m;
  SummarizeSamples(sampling, ctx, &m);
  EXPECT_NEAR(m.gbps(), 214.748, 1e-3);       // nccl-tests' algbw, 1 GiB in 5 ms
  EXPECT_NEAR(m.bus_gbps(), 322.123, 1e-3);   // its busbw
  EXPECT_DOUBLE_EQ(m.bus_bytes(), 1.5 * (1 << 30));
}

TEST(SampleSummaryBusBandwidth, FamiliesWithoutBusBytesReportNone) {
  SamplingResult sampling;
  sampling.samples = {1e-3};
  SampleContext ctx;
  ctx.bytes = 1e6;
  v1::Measurement m;
  SummarizeSamples(sampling, ctx, &m);
  EXPECT_GT(m.gbps(), 0);
  EXPECT_EQ(m.bus_bytes(), 0);
  EXPECT_EQ(m.bus_gbps(), 0);
}

}  // namespace
}  // namespace warpwatch::worker
