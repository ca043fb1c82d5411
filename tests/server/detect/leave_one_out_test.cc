// Tests of the O(n log n) leave-one-out scales against the direct definition.
#include "server/detect/leave_one_out.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace warpwatch::server::detect {
namespace {

// The definition: the scale of the others, one copy per element.
std::vector<RobustScale> Direct(const std::vector<double>& values, double floor) {
  std::vector<RobustScale> out;
  for (size_t i = 0; i < values.size(); ++i) {
    std::vector<double> others;
    for (size_t j = 0; j < values.size(); ++j) {
      if (j != i) others.push_back(values[j]);
    }
    out.push_back(RobustScaleOf(others, floor));
  }
  return out;
}

void ExpectSameBitForBit(const std::vector<double>& values, double floor) {
  const std::vector<RobustScale> fast = LeaveOneOutScales(values, floor);
  const std::vector<RobustScale> direct = Direct(values, floor);
  ASSERT_EQ(fast.size(), direct.size());
  for (size_t i = 0; i < fast.size(); ++i) {
    EXPECT_EQ(fast[i].center, direct[i].center) << "element " << i << " of " << values.size();
    EXPECT_EQ(fast[i].sigma, direct[i].sigma) << "element " << i << " of " << values.size();
    EXPECT_EQ(fast[i].floored, direct[i].floored) << "element " << i << " of " << values.size();
  }
}

TEST(LeaveOneOutTest, EachElementIsJudgedAgainstTheMedianAndMadOfTheOthers) {
  // Without 100: {1, 2, 3, 4}: centre 2.5, |x - 2.5| = {1.5, .5, .5, 1.5}: MAD 1.
  const std::vector<RobustScale> s = LeaveOneOutScales({1, 2, 3, 4, 100}, 0.0);
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[4].center, 2.5);
  EXPECT_DOUBLE_EQ(s[4].sigma, kMadToSigma * 1.0);
  // Without 1: {2, 3, 4, 100}: centre 3.5, deviations {1.5, .5, .5, 96.5}: MAD 1.
  EXPECT_EQ(s[0].center, 3.5);
  EXPECT_DOUBLE_EQ(s[0].sigma, kMadToSigma * 1.0);
}

TEST(LeaveOneOutTest, MatchesTheDirectDefinitionOnRandomFleetsOfEverySize) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(1.0, 0.01);
  for (size_t n = 2; n <= 41; ++n) {
    std::vector<double> values;
    for (size_t i = 0; i < n; ++i) values.push_back(noise(rng));
    if (n > 5) values[n / 3] *= 1.05;  // one slow device
    ExpectSameBitForBit(values, 0.005);
    ExpectSameBitForBit(values, 0.0);
  }
}

TEST(LeaveOneOutTest, MatchesTheDirectDefinitionWithTiedAndFlatValues) {
  ExpectSameBitForBit({2, 2, 2, 2, 2}, 0.005);           // flat: every sigma floored
  ExpectSameBitForBit({1, 1, 2, 2, 2, 3, 3}, 0.0);       // ties across the middle
  ExpectSameBitForBit({5, 1, 5, 1, 5, 1}, 0.001);        // two values, even count
  ExpectSameBitForBit({3, 3, 3, 3, 9, 9, 9, 0.5}, 0.0);  // ties around each centre
}

TEST(LeaveOneOutTest, OneValueHasNoOthersAndNothingHasNoScales) {
  const std::vector<RobustScale> one = LeaveOneOutScales({1.5}, 0.005);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_TRUE(std::isnan(one[0].center));
  EXPECT_TRUE(std::isnan(one[0].sigma));
  EXPECT_TRUE(LeaveOneOutScales({}, 0.005).empty());
}

}  // namespace
}  // namespace warpwatch::server::detect
