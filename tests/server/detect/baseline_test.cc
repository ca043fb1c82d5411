// Tests of good runs and the rolling baseline.
#include "server/detect/baseline.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/server/detect/run_points.h"

namespace warpwatch::server::detect {
namespace {

using testing::GoodRun;
using testing::GoodRuns;

TEST(BaselineTest, AMeasuredVerifiedUnthrottledRunIsGood) {
  EXPECT_TRUE(IsGoodRun(GoodRun(1.0), DetectionConfig()));
}

TEST(BaselineTest, AFailedRunIsNotGood) {
  RunPoint p = GoodRun(1.0);
  p.ok = false;
  EXPECT_NE(WhyNotGood(p, DetectionConfig()).find("not measured"), std::string::npos);
}

TEST(BaselineTest, AnUnverifiedRunIsNotGood) {
  RunPoint p = GoodRun(1.0);
  p.verified = false;
  EXPECT_EQ(WhyNotGood(p, DetectionConfig()), "unverified");
}

TEST(BaselineTest, ARunThrottledBeyondTheLimitIsNotGood) {
  RunPoint p = GoodRun(1.0);
  p.throttled_fraction = 0.3;
  EXPECT_EQ(WhyNotGood(p, DetectionConfig()), "throttled (30 % of samples)");
}

TEST(BaselineTest, AFewThrottledSamplesAreTolerated) {
  RunPoint p = GoodRun(1.0);
  p.throttled_fraction = 0.01;
  EXPECT_TRUE(IsGoodRun(p, DetectionConfig()));
}

TEST(BaselineTest, ANaNZeroOrInfiniteMedianIsNotGood) {
  for (double m : {double{NAN}, 0.0, -1.0, double{INFINITY}})
    EXPECT_FALSE(IsGoodRun(GoodRun(m), DetectionConfig()));
}

TEST(BaselineTest, TheBaselineIsTheNewestGoodRunsOldestFirst) {
  DetectionConfig config;
  config.baseline_runs = 3;
  std::vector<RunPoint> history = GoodRuns({1, 2, 3, 4, 5});
  history[3].verified = false;  // run 4
  const std::vector<RunPoint> baseline = SelectBaseline(history, config);
  ASSERT_EQ(baseline.size(), 3u);
  EXPECT_EQ(baseline[0].run_id, 2);
  EXPECT_EQ(baseline[1].run_id, 3);
  EXPECT_EQ(baseline[2].run_id, 5);
}

std::vector<RunPoint> TwoDevices(size_t runs_on_a, size_t runs_on_b) {
  std::vector<RunPoint> history;
  for (size_t i = 0; i < runs_on_a + runs_on_b; ++i) {
    RunPoint p = GoodRun(1.0, 1980, static_cast<int64_t>(i + 1));
    p.device_uuid = i < runs_on_a ? "GPU-a" : "GPU-b";
    history.push_back(p);
  }
  return history;
}

TEST(BaselineTest, TheBaselineComesFromTheSameDevice) {
  const std::vector<RunPoint> baseline =
      SelectBaseline(TwoDevices(6, 6), DetectionConfig(), "GPU-a");
  ASSERT_EQ(baseline.size(), 6u);
  for (const RunPoint& p : baseline) EXPECT_EQ(p.device_uuid, "GPU-a");
}

TEST(BaselineTest, AGpuWithFewRunsNeverBorrowsAnotherGpusRuns) {
  // Three of its own: the caller says UNSURE, rather than mixing in GPU-b's offset.
  const std::vector<RunPoint> baseline =
      SelectBaseline(TwoDevices(3, 8), DetectionConfig(), "GPU-a");
  ASSERT_EQ(baseline.size(), 3u);
  for (const RunPoint& p : baseline) EXPECT_EQ(p.device_uuid, "GPU-a");
}

TEST(BaselineTest, EveryDevicesRunsServeWhenAsked) {
  DetectionConfig config;
  config.same_device_only = false;
  EXPECT_EQ(SelectBaseline(TwoDevices(3, 8), config, "GPU-a").size(), 10u);
}

TEST(BaselineTest, AnEmptyHistoryGivesAnEmptyBaseline) {
  EXPECT_TRUE(SelectBaseline({}, DetectionConfig()).empty());
}

}  // namespace
}  // namespace warpwatch::server::detect
