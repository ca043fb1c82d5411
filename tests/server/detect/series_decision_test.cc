// Tests of the per-run decision on synthetic series.
#include "server/detect/series_decision.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tests/server/detect/run_points.h"

namespace warpwatch::server::detect {
namespace {

using testing::GoodRun;
using testing::GoodRuns;
using testing::QuietMedians;

// Thresholds the behaviours below are written for, independent of the tuned defaults.
DetectionConfig TestConfig() {
  DetectionConfig c;
  c.baseline_runs = 10;
  c.min_baseline_runs = 5;
  c.min_relative_change = 0.03;
  c.noise_floor_relative = 0.005;
  return c;
}
const DetectionConfig kConfig = TestConfig();

TEST(SeriesDecisionTest, AFivePercentStepIsSlowerAndBlamedOnTheCode) {
  const SeriesDecision d = DecideSeries(GoodRun(1.05), GoodRuns(QuietMedians()), kConfig);
  EXPECT_EQ(d.verdict, Verdict::kSlower);
  EXPECT_EQ(d.blame, Blame::kCode);
  EXPECT_NEAR(d.time.change, 0.05, 1e-9);
  EXPECT_EQ(d.clock, ClockComparison::kSame);
}

TEST(SeriesDecisionTest, TheDefaultsAreTheOnesDocumentedInRegressionsMd) {
  const DetectionConfig defaults;
  EXPECT_EQ(defaults.baseline_runs, 10u);
  EXPECT_EQ(defaults.min_baseline_runs, 5u);
  EXPECT_TRUE(defaults.same_device_only);
  EXPECT_EQ(defaults.false_alarm_rate, 0.01);
  EXPECT_EQ(defaults.min_relative_change, 0.01);
  EXPECT_EQ(defaults.noise_floor_relative, 0.001);
  EXPECT_EQ(defaults.noise_dof_per_pair, 0.7);
  EXPECT_EQ(defaults.max_noise_dof, 20);
  EXPECT_EQ(defaults.noise_quantile, 0.9);
  EXPECT_EQ(defaults.model_noise_weight, 30);
}

TEST(SeriesDecisionTest, WithTheDefaultsAFivePercentStepIsSlower) {
  EXPECT_EQ(DecideSeries(GoodRun(1.05), GoodRuns(QuietMedians())).verdict, Verdict::kSlower);
}

TEST(SeriesDecisionTest, WithTheDefaultsAOnePercentWobbleOfANoisySeriesIsSame) {
  // The series' own runs wander by ~0.3 %, the model's by 0.4 %: 1 % is under 2.5 sigmas.
  NoiseEstimate model;
  model.sigma_relative = 0.004;
  model.pairs = 100;
  model.devices = 8;
  EXPECT_EQ(DecideSeries(GoodRun(1.01), GoodRuns(QuietMedians()), DetectionConfig(), model).verdict,
            Verdict::kSame);
}

TEST(SeriesDecisionTest, TheModelsNoiseMakesAFewQuietRunsNoisier) {
  // Ten runs of this GPU agree within 0.3 %, but the case moves 1.5 % between runs on the
  // model's other GPUs: a 3 % change is then within two sigmas, not a finding.
  DetectionConfig config;
  const SeriesDecision alone = DecideSeries(GoodRun(1.03), GoodRuns(QuietMedians()), config);
  EXPECT_EQ(alone.verdict, Verdict::kSlower);
  NoiseEstimate model;
  model.sigma_relative = 0.015;
  model.pairs = 200;
  model.devices = 16;
  const SeriesDecision pooled =
      DecideSeries(GoodRun(1.03), GoodRuns(QuietMedians()), config, model);
  EXPECT_EQ(pooled.verdict, Verdict::kSame);
  EXPECT_GT(pooled.noise.sigma_relative, 0.01);
  EXPECT_GT(pooled.min_detectable_change, 0.05);
  EXPECT_LT(alone.min_detectable_change, pooled.min_detectable_change);
}

TEST(SeriesDecisionTest, AFivePercentSpeedupIsFaster) {
  EXPECT_EQ(DecideSeries(GoodRun(0.95), GoodRuns(QuietMedians()), kConfig).verdict,
            Verdict::kFaster);
}

TEST(SeriesDecisionTest, AChangeBelowTheMinimumIsSameHoweverSignificant) {
  // 2.5 % is 5 robust sigmas (the 0.5 % floor) of this quiet baseline, below the 3 % minimum.
  const SeriesDecision d = DecideSeries(GoodRun(1.025), GoodRuns(QuietMedians()), kConfig);
  EXPECT_GT(d.time.z, 4);
  EXPECT_EQ(d.verdict, Verdict::kSame);
}

TEST(SeriesDecisionTest, ALargeChangeWithinANoisySeriesIsSame) {
  // Baseline medians spread +-3 %: a run 3.5 % above the median is inside that spread.
  const std::vector<double> noisy = {1.00, 1.03, 0.97, 1.02, 0.98, 1.03, 0.97, 1.01, 0.99, 1.00};
  const SeriesDecision d = DecideSeries(GoodRun(1.035), GoodRuns(noisy), kConfig);
  EXPECT_LT(d.time.z, 4);
  EXPECT_EQ(d.verdict, Verdict::kSame);
}

TEST(SeriesDecisionTest, IdenticalCodeWithThreePercentRunNoiseRarelyRaisesAnAlarm) {
  // 2000 nights of a series whose run medians wander with a 3 % standard deviation, judged on its
  // ten own runs alone (no model estimate): the sigma scales with the series' own spread and the
  // t tail with its few degrees of freedom, so almost no night is called SLOWER.
  std::mt19937_64 rng(42);
  std::normal_distribution<double> noise(0.0, 0.03);
  int alarms = 0;
  const int trials = 2000;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> medians;
    for (int i = 0; i < 10; ++i) medians.push_back(1 + noise(rng));
    if (DecideSeries(GoodRun(1 + noise(rng)), GoodRuns(medians)).verdict == Verdict::kSlower) {
      ++alarms;
    }
  }
  EXPECT_LE(alarms, trials / 100);  // at most 1 %
}

TEST(SeriesDecisionTest, AClockDropWithUnchangedCyclesIsBlamedOnTheGpu) {
  // 1980 -> 1600 MHz; a compute-bound kernel takes 1980/1600 as long for the same cycles.
  const SeriesDecision d =
      DecideSeries(GoodRun(1980.0 / 1600.0, 1600), GoodRuns(QuietMedians()), kConfig);
  EXPECT_EQ(d.verdict, Verdict::kSlower);
  EXPECT_EQ(d.blame, Blame::kEnvironment);
  EXPECT_EQ(d.clock, ClockComparison::kChanged);
  ASSERT_TRUE(d.cycles.has_value());
  EXPECT_EQ(d.cycles->move, Move::kSame);
}

TEST(SeriesDecisionTest, ASlowdownInCyclesIsBlamedOnTheCodeEvenWhenTheClockDropped) {
  // Clock -5 %, time +20 %: cycles +14 %.
  const SeriesDecision d = DecideSeries(GoodRun(1.20, 1881), GoodRuns(QuietMedians()), kConfig);
  EXPECT_EQ(d.verdict, Verdict::kSlower);
  EXPECT_EQ(d.blame, Blame::kCode);
}

TEST(SeriesDecisionTest, UnchangedTimeWithMovedCyclesIsUnsure) {
  // A memory-bound kernel at a 10 % higher clock: same time, 10 % more cycles.
  const SeriesDecision d = DecideSeries(GoodRun(1.0, 2178), GoodRuns(QuietMedians()), kConfig);
  EXPECT_EQ(d.verdict, Verdict::kUnsure);
  EXPECT_FALSE(d.reason.empty());
}

TEST(SeriesDecisionTest, ASlowdownWithoutAClockIsSlowerButBlamedOnNobody) {
  const SeriesDecision d = DecideSeries(GoodRun(1.05, 0), GoodRuns(QuietMedians(), 0), kConfig);
  EXPECT_EQ(d.verdict, Verdict::kSlower);
  EXPECT_EQ(d.blame, Blame::kNone);
  EXPECT_EQ(d.clock, ClockComparison::kUnknown);
  EXPECT_FALSE(d.reason.empty());
}

TEST(SeriesDecisionTest, AnEmptyBaselineIsUnsure) {
  const SeriesDecision d = DecideSeries(GoodRun(1.0), {}, kConfig);
  EXPECT_EQ(d.verdict, Verdict::kUnsure);
  EXPECT_NE(d.reason.find("too few baseline runs"), std::string::npos);
}

TEST(SeriesDecisionTest, ASingleBaselineRunIsUnsure) {
  EXPECT_EQ(DecideSeries(GoodRun(2.0), GoodRuns({1.0}), kConfig).verdict, Verdict::kUnsure);
}

TEST(SeriesDecisionTest, ANaNMedianIsUnsure) {
  EXPECT_EQ(DecideSeries(GoodRun(NAN), GoodRuns(QuietMedians()), kConfig).verdict,
            Verdict::kUnsure);
}

TEST(SeriesDecisionTest, AZeroMedianIsUnsure) {
  EXPECT_EQ(DecideSeries(GoodRun(0), GoodRuns(QuietMedians()), kConfig).verdict, Verdict::kUnsure);
}

TEST(SeriesDecisionTest, ZeroMediansInTheBaselineAreNotBaselineRuns) {
  std::vector<RunPoint> baseline = GoodRuns(std::vector<double>(10, 0.0));
  EXPECT_EQ(DecideSeries(GoodRun(1.0), baseline, kConfig).verdict, Verdict::kUnsure);
}

TEST(SeriesDecisionTest, AFlatBaselineUsesTheMadFloor) {
  const std::vector<RunPoint> flat = GoodRuns(std::vector<double>(10, 1.0));
  const SeriesDecision same = DecideSeries(GoodRun(1.001), flat, kConfig);
  EXPECT_EQ(same.verdict, Verdict::kSame);
  EXPECT_TRUE(same.time.floored);
  // 0.1 % over the 0.5 % floor, widened for a level of 10 runs: sqrt(1 + pi / 20).
  EXPECT_NEAR(same.time.z, 0.001 / (0.005 * std::sqrt(1 + M_PI / 20)), 1e-9);
  EXPECT_EQ(DecideSeries(GoodRun(1.05), flat, kConfig).verdict, Verdict::kSlower);
}

TEST(SeriesDecisionTest, AThrottledNewRunIsUnsure) {
  RunPoint candidate = GoodRun(1.10);
  candidate.throttled_fraction = 0.5;
  const SeriesDecision d = DecideSeries(candidate, GoodRuns(QuietMedians()), kConfig);
  EXPECT_EQ(d.verdict, Verdict::kUnsure);
  EXPECT_NE(d.reason.find("throttled"), std::string::npos);
}

TEST(SeriesDecisionTest, AnUnverifiedNewRunIsUnsure) {
  RunPoint candidate = GoodRun(1.10);
  candidate.verified = false;
  EXPECT_EQ(DecideSeries(candidate, GoodRuns(QuietMedians()), kConfig).verdict, Verdict::kUnsure);
}

TEST(SeriesDecisionTest, ThrottledAndUnverifiedRunsNeverFormTheBaseline) {
  // Six good runs at 1.0 and five bad ones at 1.10: the bad ones would hide a 10 % slowdown.
  std::vector<RunPoint> baseline = GoodRuns({1.0, 1.0, 1.001, 0.999, 1.0, 1.0});
  for (int i = 0; i < 5; ++i) {
    RunPoint bad = GoodRun(1.10);
    if (i % 2 == 0) {
      bad.throttled_fraction = 0.3;
    } else {
      bad.verified = false;
    }
    baseline.push_back(bad);
  }
  const SeriesDecision d = DecideSeries(GoodRun(1.10), baseline, kConfig);
  EXPECT_EQ(d.baseline_runs_used, 6u);
  EXPECT_EQ(d.verdict, Verdict::kSlower);
}

TEST(SeriesDecisionTest, OnlyTheNewestGoodRunsFormTheBaseline) {
  // Old runs at 2.0 (before a fix), the newest ten at 1.0.
  std::vector<double> medians(5, 2.0);
  for (double m : QuietMedians()) medians.push_back(m);
  const SeriesDecision d = DecideSeries(GoodRun(1.0), GoodRuns(medians), kConfig);
  EXPECT_EQ(d.baseline_runs_used, 10u);
  EXPECT_EQ(d.baseline_run_ids.front(), 6);
  EXPECT_EQ(d.verdict, Verdict::kSame);
}

TEST(SeriesDecisionTest, AnotherDevicesOffsetIsNotAChange) {
  // Device b runs this case 1.7 % slower every night (as two H100s do on the scattered copy);
  // with its own baseline, b's run is SAME; judged against a's runs it would be SLOWER.
  std::vector<RunPoint> history;
  for (int i = 0; i < 6; ++i) {
    RunPoint a = GoodRun(1.000 + 0.001 * (i % 2));
    a.device_uuid = "GPU-a";
    RunPoint b = GoodRun(1.017 + 0.001 * (i % 2));
    b.device_uuid = "GPU-b";
    history.push_back(a);
    history.push_back(b);
  }
  RunPoint candidate = GoodRun(1.0175);
  candidate.device_uuid = "GPU-b";
  DetectionConfig config;  // the defaults
  EXPECT_EQ(DecideSeries(candidate, history, config).verdict, Verdict::kSame);
  config.same_device_only = false;
  std::vector<RunPoint> only_a;
  for (const RunPoint& p : history) {
    if (p.device_uuid == "GPU-a") only_a.push_back(p);
  }
  EXPECT_EQ(DecideSeries(candidate, only_a, config).verdict, Verdict::kSlower);
}

TEST(SeriesDecisionTest, AGpuWithoutEnoughRunsOfItsOwnIsUnsureNotJudgedOnOthers) {
  // Another GPU of the model has ten runs; this one has two: never judged on the other's level.
  std::vector<RunPoint> history = GoodRuns(QuietMedians());
  for (RunPoint& p : history) p.device_uuid = "GPU-a";
  for (int i = 0; i < 2; ++i) {
    RunPoint own = GoodRun(1.02, 1980, 100 + i);
    own.device_uuid = "GPU-b";
    history.push_back(own);
  }
  RunPoint candidate = GoodRun(1.05);
  candidate.device_uuid = "GPU-b";
  const SeriesDecision d = DecideSeries(candidate, history);
  EXPECT_EQ(d.verdict, Verdict::kUnsure);
  EXPECT_FALSE(d.judged);
  EXPECT_NE(d.reason.find("2 good baseline runs of this GPU, 5 needed"), std::string::npos)
      << d.reason;
}

TEST(SeriesDecisionTest, TheUTestIsReportedButDoesNotDecide) {
  // Samples completely separated (the U-test's p is tiny) but the median moved 0.5 %: SAME.
  std::vector<RunPoint> baseline = GoodRuns(QuietMedians());
  for (RunPoint& run : baseline) {
    for (int i = 0; i < 50; ++i) run.samples_seconds.push_back(run.median_seconds + i * 1e-7);
  }
  RunPoint candidate = GoodRun(1.005);
  for (int i = 0; i < 50; ++i) candidate.samples_seconds.push_back(1.005 + i * 1e-7);
  const SeriesDecision d = DecideSeries(candidate, baseline, kConfig);
  ASSERT_TRUE(d.u_test_p_value.has_value());
  EXPECT_LT(*d.u_test_p_value, 1e-6);
  EXPECT_EQ(d.verdict, Verdict::kSame);
}

TEST(SeriesDecisionTest, NoSamplesMeansNoUTest) {
  EXPECT_FALSE(
      DecideSeries(GoodRun(1.0), GoodRuns(QuietMedians()), kConfig).u_test_p_value.has_value());
}

}  // namespace
}  // namespace warpwatch::server::detect
