// Tests of CompareRuns: two runs side by side.
#include "server/detect/compare_runs.h"

#include <gtest/gtest.h>

#include "tests/server/detect/run_points.h"

namespace warpwatch::server::detect {
namespace {

using testing::GoodRun;

CasePoint Case(const std::string& key, double median, double clock = 1980) {
  return CasePoint{key, GoodRun(median, clock)};
}

TEST(CompareRunsTest, SharedCasesAreComparedAndTheRestListed) {
  auto r = CompareRuns({Case("a", 1.0), Case("b", 1.0)}, {Case("b", 1.0), Case("c", 1.0)});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->shared.size(), 1u);
  EXPECT_EQ(r->shared[0].case_key, "b");
  EXPECT_EQ(r->only_in_a, std::vector<std::string>{"a"});
  EXPECT_EQ(r->only_in_b, std::vector<std::string>{"c"});
}

TEST(CompareRunsTest, ATenPercentSlowdownIsSlowerWithItsChange) {
  auto r = CompareRuns({Case("k", 1.0)}, {Case("k", 1.1)});
  ASSERT_TRUE(r.ok());
  const CaseComparison& c = r->shared[0];
  EXPECT_NEAR(c.change, 0.1, 1e-12);
  EXPECT_EQ(c.verdict, Verdict::kSlower);
  EXPECT_EQ(c.blame, Blame::kCode);
}

TEST(CompareRunsTest, AChangeInsideTheNoiseBandIsSame) {
  auto r = CompareRuns({Case("k", 1.0)}, {Case("k", 1.01)});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shared[0].verdict, Verdict::kSame);
}

TEST(CompareRunsTest, AChangeBetweenTheBandsIsUnsure) {
  auto r = CompareRuns({Case("k", 1.0)}, {Case("k", 1.03)});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shared[0].verdict, Verdict::kUnsure);
  EXPECT_FALSE(r->shared[0].reason.empty());
}

TEST(CompareRunsTest, ClocksAreSideBySideAndAClockDropIsBlamedOnTheGpu) {
  auto r = CompareRuns({Case("k", 1.0, 1980)}, {Case("k", 1980.0 / 1500.0, 1500)});
  ASSERT_TRUE(r.ok());
  const CaseComparison& c = r->shared[0];
  EXPECT_EQ(c.sm_clock_mhz_a, 1980);
  EXPECT_EQ(c.sm_clock_mhz_b, 1500);
  ASSERT_TRUE(c.cycles_change.has_value());
  EXPECT_NEAR(*c.cycles_change, 0, 1e-12);
  EXPECT_EQ(c.verdict, Verdict::kSlower);
  EXPECT_EQ(c.blame, Blame::kEnvironment);
}

TEST(CompareRunsTest, TheUTestPValueIsReportedWhenBothRunsHaveSamples) {
  CasePoint a = Case("k", 1.0), b = Case("k", 1.1);
  a.point.samples_seconds = {1.0, 1.001, 0.999, 1.002, 0.998};
  b.point.samples_seconds = {1.1, 1.101, 1.099, 1.102, 1.098};
  auto r = CompareRuns({a}, {b});
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->shared[0].u_test_p_value.has_value());
  EXPECT_NEAR(*r->shared[0].u_test_p_value, 2.0 / 252.0, 1e-12);  // exact, fully separated
}

TEST(CompareRunsTest, AnUnverifiedCaseIsUnsure) {
  CasePoint b = Case("k", 1.5);
  b.point.verified = false;
  auto r = CompareRuns({Case("k", 1.0)}, {b});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shared[0].verdict, Verdict::kUnsure);
  EXPECT_NE(r->shared[0].reason.find("unverified"), std::string::npos);
}

TEST(CompareRunsTest, AZeroMedianIsUnsureAndNotADivisionByZero) {
  auto r = CompareRuns({Case("k", 0.0)}, {Case("k", 1.0)});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shared[0].verdict, Verdict::kUnsure);
}

TEST(CompareRunsTest, ACaseListedTwiceIsAnInvalidArgument) {
  auto r = CompareRuns({Case("k", 1.0), Case("k", 1.0)}, {});
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("twice"), std::string::npos);
}

TEST(CompareRunsTest, TwoEmptyRunsCompareToNothing) {
  auto r = CompareRuns({}, {});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->shared.empty());
}

}  // namespace
}  // namespace warpwatch::server::detect
