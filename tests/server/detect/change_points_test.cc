// Tests of E-divisive change-point detection.
#include "server/detect/change_points.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "server/detect/detail/energy_statistic.h"

namespace warpwatch::server::detect {
namespace {

// `n` values of 1.0 with 0.5 % Gaussian noise from `seed`, times `level` from index `at` on.
std::vector<double> Steps(size_t n, uint64_t seed, std::vector<std::pair<size_t, double>> steps) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 0.005);
  std::vector<double> v;
  for (size_t i = 0; i < n; ++i) {
    double level = 1.0;
    for (const auto& [at, factor] : steps) {
      if (i >= at) level = factor;
    }
    v.push_back(level * (1 + noise(rng)));
  }
  return v;
}

TEST(EnergyStatisticTest, QHatOfTwoSeparatedPairsIsTheirDistance) {
  // X = {0, 0}, Y = {1, 1}: 2/4 * (4 cross distances of 1) - 0 - 0 = 2.
  const std::vector<double> series = {0, 0, 1, 1};
  const detail::DistancePrefix distances(series);
  const auto split = detail::BestSplit(distances, 0, 4, 2);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->index, 2u);
  EXPECT_DOUBLE_EQ(split->q_hat, 2.0);
}

TEST(ChangePointsTest, AFivePercentStepIsFoundAtItsIndex) {
  auto points = FindChangePoints(Steps(60, 7, {{30, 1.05}}));
  ASSERT_TRUE(points.ok());
  ASSERT_EQ(points->size(), 1u);
  const ChangePoint& p = points->front();
  EXPECT_EQ(p.index, 30u);
  EXPECT_NEAR(p.median_before, 1.0, 0.005);
  EXPECT_NEAR(p.median_after, 1.05, 0.005);
  EXPECT_NEAR(p.relative_change, 0.05, 0.01);
  EXPECT_LT(p.p_value, 1e-6);
}

TEST(ChangePointsTest, TwoStepsAreFoundInOrder) {
  auto points = FindChangePoints(Steps(90, 11, {{25, 1.04}, {60, 0.98}}));
  ASSERT_TRUE(points.ok());
  ASSERT_EQ(points->size(), 2u);
  EXPECT_EQ((*points)[0].index, 25u);
  EXPECT_EQ((*points)[1].index, 60u);
  EXPECT_NEAR((*points)[1].median_before, 1.04, 0.005);
  EXPECT_NEAR((*points)[1].median_after, 0.98, 0.005);
}

TEST(ChangePointsTest, StationaryNoiseHasNoChangePoints) {
  int found = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    auto points = FindChangePoints(Steps(60, seed, {}));
    ASSERT_TRUE(points.ok());
    found += static_cast<int>(points->size());
  }
  EXPECT_EQ(found, 0);
}

TEST(ChangePointsTest, ThePermutationTestFindsTheSameStep) {
  ChangePointConfig config;
  config.test = ChangePointTest::kPermutation;
  config.permutations = 99;
  config.max_p_value = 0.05;
  auto points = FindChangePoints(Steps(40, 3, {{20, 1.05}}), config);
  ASSERT_TRUE(points.ok());
  ASSERT_EQ(points->size(), 1u);
  EXPECT_EQ(points->front().index, 20u);
  EXPECT_NEAR(points->front().p_value, 0.01, 1e-12);  // no permutation beats it: 1 / (99 + 1)
}

TEST(ChangePointsTest, ThePermutationTestIsDeterministicForOneSeed) {
  ChangePointConfig config;
  config.test = ChangePointTest::kPermutation;
  config.permutations = 49;
  config.max_p_value = 1;  // keep whatever is found so the p-values can be compared
  config.min_relative_change = 0;
  const std::vector<double> series = Steps(24, 5, {{12, 1.004}});
  auto first = FindChangePoints(series, config);
  auto second = FindChangePoints(series, config);
  ASSERT_TRUE(first.ok() && second.ok());
  ASSERT_FALSE(first->empty());
  ASSERT_EQ(first->size(), second->size());
  for (size_t i = 0; i < first->size(); ++i) {
    EXPECT_EQ((*first)[i].index, (*second)[i].index);
    EXPECT_EQ((*first)[i].p_value, (*second)[i].p_value);
  }
}

TEST(ChangePointsTest, AllEqualValuesHaveNoChangePoints) {
  auto points = FindChangePoints(std::vector<double>(50, 1.0));
  ASSERT_TRUE(points.ok());
  EXPECT_TRUE(points->empty());
}

TEST(ChangePointsTest, AllZeroValuesHaveNoChangePoints) {
  auto points = FindChangePoints(std::vector<double>(50, 0.0));
  ASSERT_TRUE(points.ok());
  EXPECT_TRUE(points->empty());
}

TEST(ChangePointsTest, ASeriesTooShortToSplitHasNoChangePoints) {
  for (size_t n : {0, 1, 9}) {
    auto points = FindChangePoints(std::vector<double>(n, 1.0));
    ASSERT_TRUE(points.ok());
    EXPECT_TRUE(points->empty());
  }
}

TEST(ChangePointsTest, ANaNValueIsAnInvalidArgument) {
  std::vector<double> series(20, 1.0);
  series[7] = NAN;
  EXPECT_EQ(FindChangePoints(series).status().code(), StatusCode::kInvalidArgument);
}

TEST(ChangePointsTest, ASeriesLongerThanTheLimitIsAnInvalidArgument) {
  ChangePointConfig config;
  config.max_points = 10;
  EXPECT_EQ(FindChangePoints(std::vector<double>(11, 1.0), config).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(ChangePointsTest, ASegmentShorterThanTwoIsAnInvalidArgument) {
  ChangePointConfig config;
  config.min_segment = 1;
  EXPECT_EQ(FindChangePoints({1, 2, 3}, config).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace warpwatch::server::detect
