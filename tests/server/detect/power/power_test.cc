// Detection power of the default DetectionConfig on H100 data: simulated from the nightly
// fixture with the measured between-run noise, and leave-one-out over repeated runs when the
// fixtures hold them (skipped otherwise). docs/regressions.md reports the same figures.
#include <gtest/gtest.h>

#include "server/detect/baseline.h"
#include "tests/server/detect/power/fixture_reader.h"
#include "tests/server/detect/power/power_study.h"

namespace warpwatch::server::detect::power {
namespace {

const std::string kFixtures = WARPWATCH_FIXTURES_DIR;

class SimulatedPowerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto run = ReadRunFixture(kFixtures + "/h100_nightly.json", false);
    ASSERT_TRUE(run.ok()) << run.status().ToString();
    std::vector<double> medians;
    for (const CasePoint& c : run->cases) {
      if (IsGoodRun(c.point, DetectionConfig())) medians.push_back(c.point.median_seconds);
    }
    PowerOptions options;
    options.trials_per_case = 100;
    options.sigma_draws = 5;
    figures_ = new PowerFigures(SimulatePower(medians, DetectionConfig(), options));
  }
  static void TearDownTestSuite() { delete figures_; }
  static double Caught(double slowdown) {
    for (size_t i = 0; i < figures_->slowdowns.size(); ++i) {
      if (figures_->slowdowns[i] == slowdown) return figures_->detection_rate[i];
    }
    return -1;
  }
  static PowerFigures* figures_;
};
PowerFigures* SimulatedPowerTest::figures_ = nullptr;

TEST(FixtureReaderTest, TheNightlyFixtureHoldsTheWholeSuiteAllGood) {
  auto run = ReadRunFixture(kFixtures + "/h100_nightly.json", true);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->cases.size(), 144u);
  int good = 0;
  for (const CasePoint& c : run->cases) {
    if (!IsGoodRun(c.point, DetectionConfig())) continue;
    ++good;
    EXPECT_FALSE(c.point.samples_seconds.empty()) << c.case_key;
    // Measured by the clock stamps around each sample: 1967-1995 MHz on this H100. Its samples
    // cluster at 1980 and 1995 MHz, two 15 MHz clock bins, although NVML's maximum is 1980.
    EXPECT_GT(c.point.sm_clock_mhz, 1900) << c.case_key;
    EXPECT_LE(c.point.sm_clock_mhz, 1995.5) << c.case_key;
  }
  EXPECT_EQ(good, 144);
}

TEST(FixtureReaderTest, AMissingFileIsNotFound) {
  EXPECT_EQ(ReadRunFixture(kFixtures + "/no_such_run.json", false).status().code(),
            StatusCode::kNotFound);
}

TEST(FixtureReaderTest, AFileThatIsNotARunResultIsAnInvalidArgument) {
  // A CMake file is not JSON at all.
  EXPECT_EQ(ReadRunFixture(kFixtures + "/../CMakeLists.txt", false).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(NoiseModelTest, ReproducesTheMeasuredChangesBetweenTwoH100Runs) {
  // Measured over 59 cases: median |change| 0.15 %, p95 1.6 %, max 4.2 %.
  const ChangeSpread spread = PredictedChangeSpread(NoiseModel(), 59, 400, 7);
  EXPECT_NEAR(spread.median, 0.0015, 0.0003);
  EXPECT_NEAR(spread.p95, 0.016, 0.003);
  EXPECT_NEAR(spread.max, 0.042, 0.008);
}

TEST_F(SimulatedPowerTest, IdenticalCodeRaisesAtMostOnePercentFalseAlarms) {
  EXPECT_LE(figures_->false_alarm_rate, 0.01);
}

TEST_F(SimulatedPowerTest, AFivePercentSlowdownIsCaughtInAtLeastNinetyPercentOfRuns) {
  EXPECT_GE(Caught(0.05), 0.90);
}

TEST_F(SimulatedPowerTest, ATenPercentSlowdownIsCaughtInAtLeastNinetyFivePercentOfRuns) {
  EXPECT_GE(Caught(0.10), 0.95);
}

TEST_F(SimulatedPowerTest, AClockDropWithUnchangedCyclesIsBlamedOnTheGpu) {
  EXPECT_GE(figures_->clock_drop_environment_rate, 0.95);
}

// Leave-one-out over tests/fixtures/h100_nightly_runs (16 back-to-back runs of the whole suite on
// two leases, its README): each run in turn judged against the other runs of its own GPU, the
// noise model from the other runs of every GPU, each run's decisions under the false-alarm
// control, with the defaults. The bars: identical code flagged SLOWER on at most 0.1 % of
// case-runs; +3 % caught on at least 95 % of the cases whose minimum detectable change is <= 2 %.
class RepeatedRunsPowerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::vector<std::string> paths = FindRunFixturesIn(kFixtures + "/h100_nightly_runs");
    if (paths.size() < 6) return;
    auto repeated = LoadRepeatedRuns(paths, /*with_samples=*/false);
    ASSERT_TRUE(repeated.ok()) << repeated.status().ToString();
    figures_ = new PowerFigures(
        LeaveOneOutPower(repeated->runs, repeated->case_keys, DetectionConfig(), PowerOptions()));
  }
  static void TearDownTestSuite() { delete figures_; }
  void SetUp() override {
    if (figures_ == nullptr) GTEST_SKIP() << "no repeated-run fixtures (h100_nightly_runs/)";
  }
  static double Caught(double slowdown, bool quiet) {
    const std::vector<double>& rates =
        quiet ? figures_->quiet_detection_rate : figures_->detection_rate;
    for (size_t i = 0; i < figures_->slowdowns.size(); ++i) {
      if (figures_->slowdowns[i] == slowdown) return rates[i];
    }
    return -1;
  }
  static PowerFigures* figures_;
};
PowerFigures* RepeatedRunsPowerTest::figures_ = nullptr;

TEST_F(RepeatedRunsPowerTest, IdenticalCodeIsFlaggedSlowerOnAtMostOneCaseRunInAThousand) {
  EXPECT_LE(figures_->false_alarm_rate, 0.001) << PowerTable({*figures_});
}

TEST_F(RepeatedRunsPowerTest, MostCasesCanDetectTwoPercent) {
  // The quiet (kernel-only) cases are 124 of 144; the host-side ones are documented one by one.
  EXPECT_GE(figures_->quiet_decisions, figures_->decisions * 2 / 3) << PowerTable({*figures_});
}

TEST_F(RepeatedRunsPowerTest, AThreePercentSlowdownIsCaughtOnTheCasesThatCanDetectTwoPercent) {
  EXPECT_GE(Caught(0.03, /*quiet=*/true), 0.95) << PowerTable({*figures_});
}

TEST_F(RepeatedRunsPowerTest, AFivePercentSlowdownIsCaughtOnTheCasesThatCanDetectTwoPercent) {
  EXPECT_GE(Caught(0.05, /*quiet=*/true), 0.99) << PowerTable({*figures_});
}

TEST_F(RepeatedRunsPowerTest, AClockDropWithUnchangedCyclesIsBlamedOnTheGpu) {
  EXPECT_GE(figures_->clock_drop_environment_rate, 0.95) << PowerTable({*figures_});
}

TEST(RepeatedRunsCompareTest, ConsecutiveRunsOfIdenticalCodeCompareAsSameOnEveryCase) {
  const std::vector<std::string> paths = FindRepeatedRunFixtures(kFixtures);
  if (paths.size() < 2) GTEST_SKIP() << "no repeated-run fixtures (h100_repeated/)";
  int compared = 0;
  for (size_t r = 1; r < paths.size(); ++r) {
    auto a = ReadRunFixture(paths[r - 1], true);
    auto b = ReadRunFixture(paths[r], true);
    ASSERT_TRUE(a.ok() && b.ok());
    auto comparison = CompareRuns(a->cases, b->cases);
    ASSERT_TRUE(comparison.ok()) << comparison.status().ToString();
    for (const CaseComparison& c : comparison->shared) {
      if (c.reason.rfind("run a:", 0) == 0 || c.reason.rfind("run b:", 0) == 0)
        continue;  // skipped
      ++compared;
      EXPECT_EQ(c.verdict, Verdict::kSame) << paths[r - 1] << " -> " << paths[r] << " "
                                           << c.case_key << " " << 100 * c.change << " %";
      EXPECT_TRUE(c.u_test_p_value.has_value()) << c.case_key;
    }
  }
  EXPECT_EQ(compared, 59 * static_cast<int>(paths.size() - 1));
}

}  // namespace
}  // namespace warpwatch::server::detect::power
