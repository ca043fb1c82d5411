// Tests of the fleet view: which device of one model is the outlier in one night.
#include "server/detect/fleet_outliers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "tests/server/detect/run_points.h"

namespace warpwatch::server::detect {
namespace {

std::vector<RunPoint> FleetOutliersFleet(const std::vector<double>& medians) {
  std::vector<RunPoint> devices = testing::GoodRuns(medians);
  for (size_t i = 0; i < devices.size(); ++i) devices[i].device_uuid = "GPU-" + std::to_string(i);
  return devices;
}

// A kernel-only case's between-run noise (0.1 %, below the MAD floor): the peers' scale decides.
constexpr double kQuietCase = 0.001;

FleetView Judge(const std::vector<RunPoint>& devices) {
  return FindFleetOutliers(devices, FleetConfig(), kQuietCase);
}

TEST(FleetOutliersTest, TheOneSlowDeviceIsTheOutlier) {
  const FleetView view =
      Judge(FleetOutliersFleet({1.000, 1.004, 0.997, 1.10, 1.002, 0.999, 1.001}));
  ASSERT_TRUE(view.judged);
  for (const DeviceJudgement& d : view.devices) {
    EXPECT_EQ(d.outlier, d.device_uuid == "GPU-3") << d.device_uuid;
  }
  EXPECT_EQ(view.devices[3].direction, Verdict::kSlower);
  EXPECT_NEAR(view.devices[3].change, 0.0995, 0.001);
}

TEST(FleetOutliersTest, AHealthyFleetHasNoOutlier) {
  const FleetView view = Judge(FleetOutliersFleet({1.000, 1.004, 0.997, 1.006, 1.002, 0.995}));
  ASSERT_TRUE(view.judged);
  for (const DeviceJudgement& d : view.devices) EXPECT_FALSE(d.outlier) << d.device_uuid;
}

TEST(FleetOutliersTest, AFastDeviceIsAnOutlierToo) {
  const FleetView view = Judge(FleetOutliersFleet({1.0, 1.0, 1.0, 1.0, 0.9}));
  ASSERT_TRUE(view.judged);
  EXPECT_TRUE(view.devices[4].outlier);
  EXPECT_EQ(view.devices[4].direction, Verdict::kFaster);
}

TEST(FleetOutliersTest, ThreeDevicesAreTooFewToJudge) {
  const FleetView view = Judge(FleetOutliersFleet({1.0, 1.0, 2.0}));
  EXPECT_FALSE(view.judged);
  EXPECT_FALSE(view.reason.empty());
  EXPECT_TRUE(view.devices.empty());
}

TEST(FleetOutliersTest, BadDevicesAreIgnoredAndNamed) {
  std::vector<RunPoint> devices = FleetOutliersFleet({1.0, 1.0, 1.0, 1.0, NAN, 1.0});
  devices[5].throttled_fraction = 0.5;
  const FleetView view = Judge(devices);
  ASSERT_TRUE(view.judged);
  EXPECT_EQ(view.devices.size(), 4u);
  ASSERT_EQ(view.ignored.size(), 2u);
  EXPECT_EQ(view.ignored[0].rfind("GPU-4: ", 0), 0u);
  EXPECT_NE(view.ignored[1].find("throttled"), std::string::npos);
}

// Four H200s of one host running the nightly suite at once (tests/fixtures/h100x4_health, clean
// nights): concurrency.streams/streamed_pipeline read up to 35.5 % off the three other GPUs of its
// night, and its medians move 15.7 % (sd) between that host's runs. Against the three peers' MAD
// alone that is an outlier; against the case's own between-run noise it is not.
TEST(FleetOutliersTest, ACaseNoisierBetweenRunsThanItsPeersAgreeIsJudgedOnItsNoise) {
  const std::vector<RunPoint> night = FleetOutliersFleet({1.000, 1.020, 0.990, 1.355});
  EXPECT_TRUE(Judge(night).devices[3].outlier);
  const FleetView view = FindFleetOutliers(night, FleetConfig(), 0.157);
  EXPECT_FALSE(view.devices[3].outlier);
  EXPECT_NEAR(view.devices[3].others_sigma, 0.157, 0.001);  // x the others' median, 1.0
  // A real fault stays an outlier against the same noise: 80 % slower is z ~5.
  EXPECT_TRUE(
      FindFleetOutliers(FleetOutliersFleet({1.000, 1.020, 0.990, 1.80}), FleetConfig(), 0.157)
          .devices[3]
          .outlier);
}

// Devices of identical behaviour (normal draws, sd 10 %), no change gate: the share judged
// outliers against their peers' MAD alone (case noise 0) and against the case's noise.
double FalseOutlierShare(int peers, double case_noise, std::mt19937_64& rng) {
  std::normal_distribution<double> run(1.0, 0.1);
  FleetConfig config;
  config.min_relative_change = 0;
  config.mad_floor_relative = 1e-9;
  constexpr int kNights = 20000;
  int outliers = 0;
  for (int n = 0; n < kNights; ++n) {
    std::vector<double> medians;
    for (int i = 0; i <= peers; ++i) medians.push_back(run(rng));
    outliers +=
        FindFleetOutliers(FleetOutliersFleet(medians), config, case_noise).devices[0].outlier ? 1
                                                                                              : 0;
  }
  return static_cast<double>(outliers) / kNights;
}

// Why the fleet view waits for the noise model: a MAD of a few peers is no noise estimate.
TEST(FleetOutliersTest, WithoutTheCaseNoiseNoFleetIsJudged) {
  const FleetView view = FindFleetOutliers(
      FleetOutliersFleet({1.000, 1.020, 0.990, 1.80, 1.0, 1.0, 1.0, 1.0}), FleetConfig(), NAN);
  EXPECT_FALSE(view.judged);
  EXPECT_NE(view.reason.find("no between-run noise"), std::string::npos) << view.reason;
  EXPECT_NE(view.reason.find("7 peers"), std::string::npos) << view.reason;
  std::mt19937_64 rng(20261203);
  EXPECT_NEAR(FalseOutlierShare(3, 0, rng), 0.27, 0.02);
  EXPECT_NEAR(FalseOutlierShare(7, 0, rng), 0.07, 0.01);
  EXPECT_NEAR(FalseOutlierShare(29, 0, rng), 0.006, 0.003);
  // With the case's noise as the floor, 0.4 % of three peers' nights (their median is a draw
  // too: 2 P(Z > 3.5) = 0.05 % would need the true center).
  EXPECT_NEAR(FalseOutlierShare(3, 0.1, rng), 0.004, 0.002);
}

}  // namespace
}  // namespace warpwatch::server::detect
