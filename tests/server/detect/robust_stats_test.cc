// Tests of median, MAD and the robust z-score.
#include "server/detect/robust_stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace warpwatch::server::detect {
namespace {

TEST(RobustStatsTest, MedianOfOddCountIsTheMiddleValue) { EXPECT_EQ(Median({3, 1, 2}), 2); }

TEST(RobustStatsTest, MedianOfEvenCountIsTheMeanOfTheTwoMiddleValues) {
  EXPECT_EQ(Median({4, 1, 3, 2}), 2.5);
}

TEST(RobustStatsTest, MedianOfNothingIsNaN) { EXPECT_TRUE(std::isnan(Median({}))); }

TEST(RobustStatsTest, MadIgnoresOneWildValue) {
  // |x - 3| = {2, 1, 0, 1, 97}: median 1.
  EXPECT_EQ(MedianAbsoluteDeviation({1, 2, 3, 4, 100}), 1);
}

TEST(RobustStatsTest, ScaleIsTheMadTimesTheNormalConstant) {
  const RobustScale s = RobustScaleOf({1, 2, 3, 4, 100}, 0.0);
  EXPECT_EQ(s.center, 3);
  EXPECT_DOUBLE_EQ(s.sigma, 1.4826);
  EXPECT_FALSE(s.floored);
}

TEST(RobustStatsTest, FlatValuesTakeTheFloorInsteadOfAZeroSigma) {
  const RobustScale s = RobustScaleOf({2, 2, 2, 2}, 0.005);
  EXPECT_DOUBLE_EQ(s.sigma, 0.01);
  EXPECT_TRUE(s.floored);
  EXPECT_NEAR(RobustZ(2.02, s), 2.0, 1e-9);
}

TEST(RobustStatsTest, ZIsZeroAtTheCentreEvenWithAZeroSigma) {
  const RobustScale s = RobustScaleOf({0, 0, 0}, 0.005);
  EXPECT_EQ(RobustZ(0, s), 0);
  EXPECT_TRUE(std::isinf(RobustZ(1, s)));
}

TEST(RobustStatsTest, ScaleOfNothingIsNaN) {
  const RobustScale s = RobustScaleOf({}, 0.005);
  EXPECT_TRUE(std::isnan(s.center));
  EXPECT_TRUE(std::isnan(s.sigma));
}

TEST(RobustStatsTest, PositiveFiniteRejectsZeroNaNAndInfinity) {
  EXPECT_TRUE(AllPositiveFinite({1e-6, 2}));
  EXPECT_FALSE(AllPositiveFinite({1, 0}));
  EXPECT_FALSE(AllPositiveFinite({1, NAN}));
  EXPECT_FALSE(AllPositiveFinite({INFINITY}));
}

}  // namespace
}  // namespace warpwatch::server::detect
