// Tests of NVML telemetry over fake NVML entry points: the clock setting it reports.
#include "worker/device/nvml_telemetry.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

using detail::kNvmlClockSm;
using detail::kNvmlSuccess;
using detail::nvmlDevice_t;
using detail::nvmlReturn_t;

// The fake GPU's SM clocks; other clock types read 0.
struct FakeClocks {
  unsigned current = 1410;
  unsigned max = 1980;
  unsigned applications = 1755;
  unsigned default_applications = 1755;
  unsigned long long reasons = 0;
};
FakeClocks g_clocks;

constexpr nvmlReturn_t kNvmlErrorNotSupported = 3;

nvmlReturn_t Answer(int type, unsigned value, unsigned* out) {
  if (type != kNvmlClockSm) return kNvmlErrorNotSupported;
  *out = value;
  return kNvmlSuccess;
}
nvmlReturn_t Current(nvmlDevice_t, int type, unsigned* mhz) {
  return Answer(type, g_clocks.current, mhz);
}
nvmlReturn_t Max(nvmlDevice_t, int type, unsigned* mhz) { return Answer(type, g_clocks.max, mhz); }
nvmlReturn_t Applications(nvmlDevice_t, int type, unsigned* mhz) {
  return Answer(type, g_clocks.applications, mhz);
}
nvmlReturn_t DefaultApplications(nvmlDevice_t, int type, unsigned* mhz) {
  return Answer(type, g_clocks.default_applications, mhz);
}
nvmlReturn_t Reasons(nvmlDevice_t, unsigned long long* reasons) {
  *reasons = g_clocks.reasons;
  return kNvmlSuccess;
}

detail::NvmlApi FakeApi() {
  detail::NvmlApi api;
  api.clock_info = &Current;
  api.max_clock_info = &Max;
  api.applications_clock = &Applications;
  api.default_applications_clock = &DefaultApplications;
  api.clock_reasons = &Reasons;
  return api;
}

class NvmlTelemetryTest : public ::testing::Test {
 protected:
  void SetUp() override { g_clocks = FakeClocks{}; }
};

TEST_F(NvmlTelemetryTest, DefaultApplicationClocksReportTheBoostMaximum) {
  std::unique_ptr<Telemetry> t = NvmlTelemetry::FromApi(FakeApi(), nullptr);
  ClockSetting s = t->ReadClockSetting();
  EXPECT_EQ(s.policy, ClockPolicy::kBoost);
  EXPECT_EQ(s.sm_clock_mhz, 1980);
}

TEST_F(NvmlTelemetryTest, OperatorSetApplicationClocksAreTheSetting) {
  g_clocks.applications = 1500;
  std::unique_ptr<Telemetry> t = NvmlTelemetry::FromApi(FakeApi(), nullptr);
  ClockSetting s = t->ReadClockSetting();
  EXPECT_EQ(s.policy, ClockPolicy::kApplications);
  EXPECT_EQ(s.sm_clock_mhz, 1500);
}

TEST_F(NvmlTelemetryTest, DriverWithoutApplicationClocksReportsTheMaximum) {
  detail::NvmlApi api = FakeApi();
  api.applications_clock = nullptr;
  api.default_applications_clock = nullptr;
  std::unique_ptr<Telemetry> t = NvmlTelemetry::FromApi(api, nullptr);
  EXPECT_EQ(t->ReadClockSetting().sm_clock_mhz, 1980);
}

// A locked GPU: the reading carries the clock it is held at and the applications-clocks reason.
TEST_F(NvmlTelemetryTest, ReadClockCarriesTheClocksEventReasons) {
  g_clocks.reasons = 0x2;
  std::unique_ptr<Telemetry> t = NvmlTelemetry::FromApi(FakeApi(), nullptr);
  ClockReading r = t->ReadClock();
  EXPECT_EQ(r.sm_clock_mhz, 1410);
  EXPECT_EQ(r.throttle_reasons, 0x2u);
}

}  // namespace
}  // namespace warpwatch::worker
