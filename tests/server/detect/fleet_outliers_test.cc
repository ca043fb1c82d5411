// Tests of the fleet view: which device of one model is the outlier in one night.
#include "server/detect/fleet_outliers.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/server/detect/run_points.h"

namespace warpwatch::server::detect {
namespace {

std::vector<RunPoint> Fleet(const std::vector<double>& medians) {
  std::vector<RunPoint> devices = testing::GoodRuns(medians);
  for (size_t i = 0; i < devices.size(); ++i) devices[i].device_uuid = "GPU-" + std::to_string(i);
  return devices;
}

TEST(FleetOutliersTest, TheOneSlowDeviceIsTheOutlier) {
  const FleetView view = FindFleetOutliers(Fleet({1.000, 1.004, 0.997, 1.10, 1.002, 0.999, 1.001}));
  ASSERT_TRUE(view.judged);
  for (const DeviceJudgement& d : view.devices) {
    EXPECT_EQ(d.outlier, d.device_uuid == "GPU-3") << d.device_uuid;
  }
  EXPECT_EQ(view.devices[3].direction, Verdict::kSlower);
  EXPECT_NEAR(view.devices[3].change, 0.0995, 0.001);
}

TEST(FleetOutliersTest, AHealthyFleetHasNoOutlier) {
  const FleetView view = FindFleetOutliers(Fleet({1.000, 1.004, 0.997, 1.006, 1.002, 0.995}));
  ASSERT_TRUE(view.judged);
  for (const DeviceJudgement& d : view.devices) EXPECT_FALSE(d.outlier) << d.device_uuid;
}

TEST(FleetOutliersTest, AFastDeviceIsAnOutlierToo) {
  const FleetView view = FindFleetOutliers(Fleet({1.0, 1.0, 1.0, 1.0, 0.9}));
  ASSERT_TRUE(view.judged);
  EXPECT_TRUE(view.devices[4].outlier);
  EXPECT_EQ(view.devices[4].direction, Verdict::kFaster);
}

TEST(FleetOutliersTest, ThreeDevicesAreTooFewToJudge) {
  const FleetView view = FindFleetOutliers(Fleet({1.0, 1.0, 2.0}));
  EXPECT_FALSE(view.judged);
  EXPECT_FALSE(view.reason.empty());
  EXPECT_TRUE(view.devices.empty());
}

TEST(FleetOutliersTest, BadDevicesAreIgnoredAndNamed) {
  std::vector<RunPoint> devices = Fleet({1.0, 1.0, 1.0, 1.0, NAN, 1.0});
  devices[5].throttled_fraction = 0.5;
  const FleetView view = FindFleetOutliers(devices);
  ASSERT_TRUE(view.judged);
  EXPECT_EQ(view.devices.size(), 4u);
  ASSERT_EQ(view.ignored.size(), 2u);
  EXPECT_EQ(view.ignored[0].rfind("GPU-4: ", 0), 0u);
  EXPECT_NE(view.ignored[1].find("throttled"), std::string::npos);
}

}  // namespace
}  // namespace warpwatch::server::detect
