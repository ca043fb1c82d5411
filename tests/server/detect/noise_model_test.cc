// Tests of the noise model (server/detect/noise_model.h).
#include "server/detect/noise_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/server/detect/run_points.h"

namespace warpwatch::server::detect {
namespace {

using testing::GoodRun;

// `n` runs of each of `devices` GPUs, each GPU at its own offset, medians x (1 + N(0, sigma)),
// interleaved by night as a fleet's history is.
std::vector<RunPoint> Fleet(int devices, int n, double sigma, uint64_t seed, double step = 0,
                            int step_at = -1) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, sigma);
  std::vector<RunPoint> history;
  for (int night = 0; night < n; ++night) {
    for (int d = 0; d < devices; ++d) {
      const double level = (1 + 0.005 * d) * (night >= step_at && step_at >= 0 ? 1 + step : 1);
      RunPoint p = GoodRun(level * (1 + noise(rng)));
      p.device_uuid = "GPU-" + std::to_string(d);
      history.push_back(p);
    }
  }
  return history;
}

TEST(NoiseModelTest, SuccessiveDifferencesRecoverTheRunNoiseAcrossDeviceOffsets) {
  // Eight GPUs 0.5 % apart each: pooling their medians directly would read as 1.2 % noise.
  const NoiseEstimate e = SuccessiveDifferenceNoise(Fleet(8, 40, 0.002, 1), DetectionConfig());
  EXPECT_EQ(e.devices, 8u);
  EXPECT_EQ(e.pairs, 8u * 39u);
  EXPECT_NEAR(e.sigma_relative, 0.002, 0.0003);
}

TEST(NoiseModelTest, ALevelStepBarelyMovesTheEstimate) {
  const NoiseEstimate flat = SuccessiveDifferenceNoise(Fleet(4, 30, 0.002, 2), DetectionConfig());
  const NoiseEstimate step =
      SuccessiveDifferenceNoise(Fleet(4, 30, 0.002, 2, 0.05, 15), DetectionConfig());
  EXPECT_NEAR(step.sigma_relative, flat.sigma_relative, 0.0003);
}

TEST(NoiseModelTest, TheTailQuantileSeesRegimeJumpsTheMedianMisses) {
  // One GPU whose runs agree within 0.1 % except that one run in six jumps by 4 % (a host-side
  // case switching regimes): the median difference sees 0.1 %, the 90th percentile the jumps.
  std::vector<RunPoint> history;
  for (int i = 0; i < 60; ++i) {
    RunPoint p = GoodRun((i % 6 == 5 ? 1.04 : 1.0) * (1 + 0.001 * ((i * 7) % 3 - 1)));
    p.device_uuid = "GPU-a";
    history.push_back(p);
  }
  DetectionConfig median;
  median.noise_quantile = 0.5;
  const NoiseEstimate blind = SuccessiveDifferenceNoise(history, median);
  const NoiseEstimate tail = SuccessiveDifferenceNoise(history, DetectionConfig());
  EXPECT_LT(blind.sigma_relative, 0.002);
  EXPECT_GT(tail.sigma_relative, 0.01);
}

TEST(NoiseModelTest, BadRunsAndLoneRunsGiveNoPairs) {
  std::vector<RunPoint> history = {GoodRun(1.0), GoodRun(1.0)};
  history[0].device_uuid = "GPU-a";
  history[1].device_uuid = "GPU-b";
  EXPECT_FALSE(SuccessiveDifferenceNoise(history, DetectionConfig()).known());
  RunPoint bad = GoodRun(2.0);
  bad.device_uuid = "GPU-a";
  bad.verified = false;
  history.push_back(bad);
  EXPECT_FALSE(SuccessiveDifferenceNoise(history, DetectionConfig()).known());
}

TEST(NoiseModelTest, TheModelIsPooledWithTheGpusOwnRunsByTheirWeights) {
  DetectionConfig config;
  NoiseEstimate model;
  model.sigma_relative = 0.01;
  model.pairs = 1000;  // counts as model_noise_weight (30) pairs
  NoiseEstimate own;
  own.sigma_relative = 0.004;
  own.pairs = 9;
  const SeriesNoise n = CombineNoise(model, own, config);
  EXPECT_DOUBLE_EQ(n.model_weight, 30);
  EXPECT_NEAR(n.sigma_relative, std::sqrt((30 * 1e-4 + 9 * 1.6e-5) / 39), 1e-12);
  EXPECT_DOUBLE_EQ(n.dof, config.max_noise_dof);  // 0.7 x 39 = 27.3, capped at 20
  EXPECT_FALSE(n.floored);
}

TEST(NoiseModelTest, AKeptSigmaReplacesThePoolsAndIsFlooredAndNamed) {
  DetectionConfig config;
  NoiseEstimate model;
  model.sigma_relative = 0.2;  // a pool that holds a finding's own step
  model.pairs = 4;
  const SeriesNoise pooled = CombineNoise(model, NoiseEstimate(), config);
  const SeriesNoise kept = KeepSigma(pooled, 0.004, config);
  EXPECT_DOUBLE_EQ(kept.sigma_relative, 0.004);
  EXPECT_TRUE(kept.kept);
  EXPECT_FALSE(kept.floored);
  EXPECT_DOUBLE_EQ(kept.dof, pooled.dof);
  EXPECT_NE(NoiseText(kept).find("sigma 0.400 % (kept from the finding's first run; now model"),
            std::string::npos)
      << NoiseText(kept);
  const SeriesNoise tiny = KeepSigma(pooled, 1e-6, config);
  EXPECT_TRUE(tiny.floored);
  EXPECT_DOUBLE_EQ(tiny.sigma_relative, config.noise_floor_relative);
  // No stored sigma (NaN, or 0): the pool stands.
  EXPECT_DOUBLE_EQ(KeepSigma(pooled, NAN, config).sigma_relative, pooled.sigma_relative);
  EXPECT_FALSE(KeepSigma(pooled, 0, config).kept);
}

TEST(NoiseModelTest, WithoutAnyEstimateTheFloorAndTheMinimumDofAreUsed) {
  DetectionConfig config;
  const SeriesNoise n = CombineNoise(NoiseEstimate(), NoiseEstimate(), config);
  EXPECT_TRUE(n.floored);
  EXPECT_DOUBLE_EQ(n.sigma_relative, config.noise_floor_relative);
  EXPECT_DOUBLE_EQ(n.dof, config.min_noise_dof);
}

TEST(NoiseModelTest, ThePValueFollowsTheStudentTail) {
  SeriesNoise n;
  n.sigma_relative = 0.01;
  n.dof = 1e6;  // a normal
  // k = 10: prediction sigma 0.01 x sqrt(1 + pi / 20); 1.96 of them is p 0.05.
  const double pred = PredictionSigma(n, 10);
  EXPECT_NEAR(pred, 0.01 * std::sqrt(1 + M_PI / 20), 1e-12);
  EXPECT_NEAR(ChangePValue(1.959964 * pred, n, 10), 0.05, 1e-4);
  EXPECT_EQ(ChangePValue(0, n, 10), 1);
  n.dof = 3;
  EXPECT_GT(ChangePValue(1.959964 * pred, n, 10), 0.1);  // heavier tail
}

TEST(NoiseModelTest, TheMinimumDetectableChangeIsCaughtNineteenTimesInTwenty) {
  // Simulate the rule on a lone change of exactly the MDC: caught in >= 95 % of draws.
  DetectionConfig config;
  SeriesNoise n;
  n.sigma_relative = 0.004;
  n.dof = 12;
  const double mdc = MinimumDetectableChange(n, 10, 144, config);
  EXPECT_GT(mdc, config.min_relative_change);
  std::mt19937_64 rng(7);
  std::normal_distribution<double> unit(0, 1);
  int caught = 0;
  const int trials = 4000;
  const double alpha = config.false_alarm_rate / 144;
  for (int t = 0; t < trials; ++t) {
    const double observed = mdc + PredictionSigma(n, 10) * unit(rng);
    if (ChangePValue(observed, n, 10) <= alpha && observed >= config.min_relative_change) ++caught;
  }
  // 95 % by construction; 4000 draws estimate it within +-0.35 % (one standard error), and a
  // change 20 % smaller would be caught far less often: it is the smallest such change.
  EXPECT_NEAR(static_cast<double>(caught) / trials, 0.95, 0.012);
}

TEST(NoiseModelTest, TheMinimumChangeBindsOnQuietSeries) {
  DetectionConfig config;
  SeriesNoise n;
  n.sigma_relative = 0.0005;
  n.dof = 12;
  EXPECT_DOUBLE_EQ(MinimumDetectableChange(n, 10, 144, config), config.min_relative_change);
}

}  // namespace
}  // namespace warpwatch::server::detect
