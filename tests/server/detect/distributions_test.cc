// Tests of the normal and Student t tails and Welch's t-test against textbook values.
#include "server/detect/detail/distributions.h"

#include <gtest/gtest.h>

#include <cmath>

#include "server/detect/detail/welch_t_test.h"

namespace warpwatch::server::detect::detail {
namespace {

TEST(DistributionsTest, NormalTwoSidedPAt196IsFivePercent) {
  EXPECT_NEAR(NormalTwoSidedP(1.959964), 0.05, 1e-6);
  EXPECT_EQ(NormalTwoSidedP(0), 1);
}

TEST(DistributionsTest, IncompleteBetaOfOneOneIsX) {
  EXPECT_NEAR(RegularizedIncompleteBeta(1, 1, 0.3), 0.3, 1e-12);
}

TEST(DistributionsTest, IncompleteBetaIsOneHalfAtTheMiddleOfASymmetricBeta) {
  EXPECT_NEAR(RegularizedIncompleteBeta(7.5, 7.5, 0.5), 0.5, 1e-12);
}

TEST(DistributionsTest, StudentTWithOneDegreeIsCauchy) {
  // Cauchy: P(|T| >= 1) = 1 - 2 atan(1) / pi = 0.5.
  EXPECT_NEAR(StudentTTwoSidedP(1, 1), 0.5, 1e-12);
}

TEST(DistributionsTest, StudentTWithTwoDegreesHasAClosedForm) {
  // P(|T| >= t) = 1 - t / sqrt(2 + t^2).
  EXPECT_NEAR(StudentTTwoSidedP(2, 2), 1 - 2 / std::sqrt(6.0), 1e-12);
}

TEST(DistributionsTest, StudentTMatchesTheTableAtTenDegrees) {
  EXPECT_NEAR(StudentTTwoSidedP(2.228139, 10), 0.05, 1e-6);
}

TEST(DistributionsTest, StudentTRejectsNonPositiveDegrees) {
  EXPECT_TRUE(std::isnan(StudentTTwoSidedP(1, 0)));
}

TEST(WelchTTestTest, EqualVariancesGiveTheTextbookTAndDegrees) {
  // Means 3 and 5, variances 2.5 and 2.5, n = 5: t = -2, df = 8, p = 0.080516.
  const WelchResult r = WelchTTest({1, 2, 3, 4, 5}, {3, 4, 5, 6, 7});
  EXPECT_NEAR(r.t, -2, 1e-12);
  EXPECT_NEAR(r.df, 8, 1e-12);
  EXPECT_NEAR(r.p_value, 0.080516, 1e-6);
}

TEST(WelchTTestTest, TwoDifferentConstantsAreCertainlyDifferent) {
  EXPECT_EQ(WelchTTest({1, 1, 1}, {2, 2}).p_value, 0);
  EXPECT_EQ(WelchTTest({1, 1, 1}, {1, 1}).p_value, 1);
}

}  // namespace
}  // namespace warpwatch::server::detect::detail
