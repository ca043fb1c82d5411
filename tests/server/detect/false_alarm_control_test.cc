// Tests of the run-wide false-alarm control (server/detect/false_alarm_control.h).
#include "server/detect/false_alarm_control.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/server/detect/run_points.h"

namespace warpwatch::server::detect {
namespace {

using testing::GoodRun;
using testing::GoodRuns;
using testing::QuietMedians;

std::vector<SeriesDecision*> Pointers(std::vector<SeriesDecision>& decisions) {
  std::vector<SeriesDecision*> out;
  for (SeriesDecision& d : decisions) out.push_back(&d);
  return out;
}

TEST(FalseAlarmControlTest, ABorderlineFlagAmongManyDecisionsIsDemoted) {
  // 144 cases, one of them up by the smallest change a single decision calls SLOWER on a series
  // with 0.4 % noise: its p passes q for one decision but not q x 1 / 144.
  DetectionConfig config;
  NoiseEstimate model;
  model.sigma_relative = 0.004;
  model.pairs = 100;
  double borderline = 0;
  for (double x = 1.010; x < 1.06 && borderline == 0; x += 0.0005) {
    if (DecideSeries(GoodRun(x), GoodRuns(QuietMedians()), config, model).verdict ==
        Verdict::kSlower) {
      borderline = x;
    }
  }
  ASSERT_GT(borderline, 0);
  std::vector<SeriesDecision> decisions;
  for (int i = 0; i < 143; ++i) {
    decisions.push_back(DecideSeries(GoodRun(1.0), GoodRuns(QuietMedians()), config, model));
  }
  decisions.push_back(DecideSeries(GoodRun(borderline), GoodRuns(QuietMedians()), config, model));
  ASSERT_EQ(decisions.back().verdict, Verdict::kSlower);
  ASSERT_GT(decisions.back().time.p_value, config.false_alarm_rate / 144);
  const FalseAlarmControl control = ControlFalseAlarms(Pointers(decisions), config);
  EXPECT_EQ(control.decisions, 144u);
  EXPECT_EQ(control.demoted, 1u);
  EXPECT_EQ(decisions.back().verdict, Verdict::kSame);
  EXPECT_NE(decisions.back().reason.find("Benjamini-Hochberg"), std::string::npos);
  EXPECT_EQ(decisions.back().decisions_in_run, 144u);
}

TEST(FalseAlarmControlTest, AClearChangeSurvivesAndManyChangesTogetherLoosenTheCutoff) {
  DetectionConfig config;
  std::vector<SeriesDecision> decisions;
  for (int i = 0; i < 100; ++i) {
    decisions.push_back(DecideSeries(GoodRun(1.0), GoodRuns(QuietMedians()), config));
  }
  for (int i = 0; i < 44; ++i) {
    decisions.push_back(DecideSeries(GoodRun(1.05), GoodRuns(QuietMedians()), config));
  }
  const FalseAlarmControl control = ControlFalseAlarms(Pointers(decisions), config);
  EXPECT_EQ(control.demoted, 0u);
  EXPECT_NEAR(control.cutoff, config.false_alarm_rate * 44 / 144, 1e-12);
  for (size_t i = 100; i < decisions.size(); ++i) {
    EXPECT_EQ(decisions[i].verdict, Verdict::kSlower);
  }
}

TEST(FalseAlarmControlTest, UnjudgedDecisionsDoNotCount) {
  DetectionConfig config;
  std::vector<SeriesDecision> decisions;
  decisions.push_back(DecideSeries(GoodRun(1.05), GoodRuns(QuietMedians()), config));
  decisions.push_back(DecideSeries(GoodRun(1.05), {}, config));  // too few runs
  const FalseAlarmControl control = ControlFalseAlarms(Pointers(decisions), config);
  EXPECT_EQ(control.decisions, 1u);
  EXPECT_EQ(decisions[0].verdict, Verdict::kSlower);
  EXPECT_FALSE(decisions[1].false_alarm_cutoff.has_value());
}

TEST(FalseAlarmControlTest, IdenticalCodeOnAThousandRunsRaisesFewFlags) {
  // 1000 runs of 144 cases, each case with its own true sigma (lognormal around 0.2 %), judged on
  // ten own runs and a model estimate of the same sigma: with q 0.01, at most ~1 % of runs may
  // raise anything (a normal tail; real run noise is heavier, docs/regressions.md measures it).
  DetectionConfig config;
  std::mt19937_64 rng(11);
  std::lognormal_distribution<double> sigmas(std::log(0.002), 0.8);
  std::normal_distribution<double> unit(0, 1);
  int runs_with_a_flag = 0;
  for (int run = 0; run < 1000; ++run) {
    std::vector<SeriesDecision> decisions;
    for (int c = 0; c < 144; ++c) {
      const double sigma = sigmas(rng);
      std::vector<double> medians;
      for (int i = 0; i < 10; ++i) medians.push_back(1 + sigma * unit(rng));
      NoiseEstimate model;
      model.sigma_relative = sigma;
      model.pairs = 200;
      decisions.push_back(
          DecideSeries(GoodRun(1 + sigma * unit(rng)), GoodRuns(medians), config, model));
    }
    ControlFalseAlarms(Pointers(decisions), config);
    for (const SeriesDecision& d : decisions) {
      if (d.verdict == Verdict::kSlower || d.verdict == Verdict::kFaster) {
        ++runs_with_a_flag;
        break;
      }
    }
  }
  EXPECT_LE(runs_with_a_flag, 15);
}

}  // namespace
}  // namespace warpwatch::server::detect
