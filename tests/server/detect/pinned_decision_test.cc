// Tests of deciding a run against a pinned baseline (server/detect/pinned_decision.h).
#include "server/detect/pinned_decision.h"

#include <gtest/gtest.h>

#include "tests/server/detect/run_points.h"

namespace warpwatch::server::detect {
namespace {

using testing::GoodRun;
using testing::GoodRuns;
using testing::QuietMedians;

// A rolling window that crept up 6 % in small steps: every night looked like the one before.
std::vector<RunPoint> SlowWindow() {
  std::vector<double> medians;
  for (double m : QuietMedians()) medians.push_back(m * 1.06);
  return GoodRuns(medians);
}

TEST(PinnedDecisionTest, AFastPinnedReleaseRunFlagsWhatTheSlowRollingWindowMisses) {
  const RunPoint candidate = GoodRun(1.06, 1980, 100);
  ASSERT_EQ(DecideSeries(candidate, SlowWindow()).verdict, Verdict::kSame);
  const RunPoint release = GoodRun(1.0, 1980, 50);
  std::optional<PinnedDecision> d = DecideAgainstPinned(candidate, {release}, SlowWindow());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->decision.verdict, Verdict::kSlower);
  EXPECT_EQ(d->decision.blame, Blame::kCode);
  EXPECT_NEAR(d->decision.time.baseline, 1.0, 1e-12);
  EXPECT_NEAR(d->decision.time.change, 0.06, 1e-9);
  EXPECT_EQ(d->decision.baseline_run_ids, std::vector<int64_t>{50});
  EXPECT_NE(d->spread.find("rolling window"), std::string::npos) << d->spread;
}

TEST(PinnedDecisionTest, TheRollingSpreadIsJudgedAtThePinnedLevel) {
  // Within the rescaled window's noise (0.3 %) of the pinned level: SAME.
  std::optional<PinnedDecision> d =
      DecideAgainstPinned(GoodRun(1.002, 1980, 100), {GoodRun(1.0, 1980, 50)}, SlowWindow());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->decision.verdict, Verdict::kSame);
}

TEST(PinnedDecisionTest, FivePinnedRunsAreTheLevel) {
  std::vector<RunPoint> pinned = GoodRuns({1.0, 1.001, 0.999, 1.002, 0.998});
  std::optional<PinnedDecision> d = DecideAgainstPinned(GoodRun(1.05, 1980, 100), pinned, {});
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->decision.verdict, Verdict::kSlower);
  EXPECT_NEAR(d->decision.time.baseline, 1.0, 1e-12);
  EXPECT_EQ(d->decision.baseline_runs_used, 5u);
}

TEST(PinnedDecisionTest, WithoutAnyWindowTheNoiseFloorJudgesOnePinnedRun) {
  std::optional<PinnedDecision> d =
      DecideAgainstPinned(GoodRun(1.05, 1980, 100), {GoodRun(1.0, 1980, 50)}, {});
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->decision.verdict, Verdict::kSlower);
  EXPECT_NE(d->spread.find("the floor"), std::string::npos) << d->spread;
}

TEST(PinnedDecisionTest, AnotherGpusPinnedRunIsNeverThisGpusLevel) {
  // A schedule run pinned as one: a run per GPU. GPU-b's run 1.7 % slower is not GPU-a's level.
  RunPoint pinned_a = GoodRun(1.0, 1980, 50);
  pinned_a.device_uuid = "GPU-a";
  RunPoint pinned_b = GoodRun(1.017, 1980, 51);
  pinned_b.device_uuid = "GPU-b";
  RunPoint candidate = GoodRun(1.0, 1980, 100);
  candidate.device_uuid = "GPU-a";
  std::optional<PinnedDecision> d = DecideAgainstPinned(candidate, {pinned_a, pinned_b}, {});
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->decision.baseline_run_ids, std::vector<int64_t>{50});
  EXPECT_EQ(d->decision.verdict, Verdict::kSame);
  RunPoint third = GoodRun(1.0, 1980, 101);
  third.device_uuid = "GPU-c";  // no pinned run of its own: the rolling window decides
  EXPECT_FALSE(DecideAgainstPinned(third, {pinned_a, pinned_b}, {}).has_value());
}

TEST(PinnedDecisionTest, NoGoodPinnedRunMeansTheRollingWindowDecides) {
  RunPoint unverified = GoodRun(1.0, 1980, 50);
  unverified.verified = false;
  EXPECT_FALSE(DecideAgainstPinned(GoodRun(1.06, 1980, 100), {unverified}, SlowWindow()));
  // Nor does a run pinned against itself.
  EXPECT_FALSE(DecideAgainstPinned(GoodRun(1.06, 1980, 100), {GoodRun(1.0, 1980, 100)}, {}));
}

TEST(PinnedDecisionTest, AClockDropAgainstThePinIsBlamedOnTheGpu) {
  // 6 % slower at a 6 % lower clock: the same cycles.
  std::optional<PinnedDecision> d = DecideAgainstPinned(
      GoodRun(1.06, 1980 / 1.06, 100), {GoodRun(1.0, 1980, 50)}, GoodRuns(QuietMedians()));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->decision.verdict, Verdict::kSlower);
  EXPECT_EQ(d->decision.blame, Blame::kEnvironment);
}

TEST(PinnedDecisionTest, TheUTestUsesThePinnedRunsSamples) {
  RunPoint candidate = GoodRun(1.06, 1980, 100);
  RunPoint release = GoodRun(1.0, 1980, 50);
  for (int i = 0; i < 10; ++i) {
    candidate.samples_seconds.push_back(1.06 + 0.001 * i);
    release.samples_seconds.push_back(1.0 + 0.001 * i);
  }
  std::optional<PinnedDecision> d = DecideAgainstPinned(candidate, {release}, SlowWindow());
  ASSERT_TRUE(d.has_value());
  ASSERT_TRUE(d->decision.u_test_p_value.has_value());
  EXPECT_LT(*d->decision.u_test_p_value, 0.001);
}

}  // namespace
}  // namespace warpwatch::server::detect
