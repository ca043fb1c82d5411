// Tests of the Mann-Whitney U test against hand-computed values.
#include "server/detect/mann_whitney.h"

#include <gtest/gtest.h>

#include <cmath>

namespace warpwatch::server::detect {
namespace {

// The classic example (scipy.stats.mannwhitneyu's documentation): ages of 5 males and 4 females.
const std::vector<double> kMales = {19, 22, 16, 29, 24};
const std::vector<double> kFemales = {20, 11, 17, 12};

TEST(MannWhitneyTest, UCountsThePairsWhereTheFirstSampleIsLarger) {
  auto r = MannWhitneyUTest(kMales, kFemales);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->u, 17);
}

TEST(MannWhitneyTest, SmallSamplesWithoutTiesUseTheExactDistribution) {
  // U = 17 of 20, the other side's U = 3: P(U <= 3) = 7 / C(9, 4) = 7 / 126; two-sided 14 / 126.
  auto r = MannWhitneyUTest(kMales, kFemales);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->exact);
  EXPECT_NEAR(r->p_value, 14.0 / 126.0, 1e-12);
}

TEST(MannWhitneyTest, SwappingTheSidesMirrorsUAndKeepsP) {
  auto r = MannWhitneyUTest(kFemales, kMales);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->u, 3);
  EXPECT_NEAR(r->p_value, 14.0 / 126.0, 1e-12);
}

TEST(MannWhitneyTest, TiesUseTheNormalApproximationWithTieCorrection) {
  // Midranks: U = 6; sum(t^3 - t) = 54; var = 30/12 * (12 - 54/110) = 28.7727;
  // z = (6 - 15 + 0.5) / sqrt(var) = -1.58463; p = 0.113050.
  auto r = MannWhitneyUTest({1, 2, 2, 3, 4}, {2, 3, 3, 5, 6, 6});
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->exact);
  EXPECT_EQ(r->u, 6);
  EXPECT_NEAR(r->z, -1.5846320, 1e-6);
  EXPECT_NEAR(r->p_value, 0.1130500, 1e-6);
}

TEST(MannWhitneyTest, CompletelySeparatedLargeSamplesGiveATinyP) {
  std::vector<double> a, b;
  for (int i = 0; i < 1000; ++i) {
    a.push_back(1.0 + i * 1e-6);
    b.push_back(1.01 + i * 1e-6);
  }
  auto r = MannWhitneyUTest(b, a);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->u, 1000.0 * 1000.0);
  EXPECT_LT(r->p_value, 1e-100);
}

TEST(MannWhitneyTest, AllValuesTiedGiveOne) {
  auto r = MannWhitneyUTest({5, 5, 5}, {5, 5});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->p_value, 1);
}

TEST(MannWhitneyTest, AnEmptySideIsAnInvalidArgument) {
  EXPECT_EQ(MannWhitneyUTest({}, {1}).status().code(), StatusCode::kInvalidArgument);
}

TEST(MannWhitneyTest, ANaNSampleIsAnInvalidArgument) {
  EXPECT_EQ(MannWhitneyUTest({1, NAN}, {1}).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace warpwatch::server::detect
