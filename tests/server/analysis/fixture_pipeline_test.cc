// The analysis pipeline (PostgreSQL store, AnalyzeRun, regression rows, confirmation job) on the
// real repeated H100 runs (tests/fixtures/h100_repeated: 4 runs on each of two H100s, samples
// thinned to 100), leave-one-out: three runs of one GPU form the baseline, the fourth is analysed
// as measured (A/A), with every case's samples slowed by 3 % or 5 %, or with the clock dropped to
// 1700 MHz at unchanged cycles. Each rotation gets an emptied database holding one GPU's runs, as
// on a fleet where the device has its own history (prefer_same_device); only 3 runs exist per GPU,
// so min_baseline_runs is 3 here, as in the detector's own study (docs/regressions.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "tests/server/analysis/analysis_test_util.h"
#include "tests/server/detect/power/fixture_reader.h"

namespace warpwatch::server::testing {
namespace {

const std::string kFixtures = WARPWATCH_FIXTURES_DIR;

// "family/variant?a=1&b=2" -> a Point with those fields.
Point PointOf(const detect::CasePoint& c) {
  Point p;
  const size_t slash = c.case_key.find('/');
  const size_t query = c.case_key.find('?');
  p.family = c.case_key.substr(0, slash);
  p.variant = c.case_key.substr(slash + 1,
                                query == std::string::npos ? std::string::npos : query - slash - 1);
  p.params.clear();
  if (query != std::string::npos) {
    std::string rest = c.case_key.substr(query + 1);
    size_t start = 0;
    while (start < rest.size()) {
      size_t amp = rest.find('&', start);
      if (amp == std::string::npos) amp = rest.size();
      const std::string pair = rest.substr(start, amp - start);
      const size_t eq = pair.find('=');
      p.params[pair.substr(0, eq)] = std::strtoll(pair.c_str() + eq + 1, nullptr, 10);
      start = amp + 1;
    }
  }
  p.median = c.point.median_seconds;
  p.clock_mhz = c.point.sm_clock_mhz;
  p.ok = c.point.ok;
  p.verified = c.point.verified;
  p.throttled = c.point.throttled_fraction;
  p.samples = c.point.samples_seconds;
  return p;
}

struct Scenario {
  double slowdown = 0;   // every sample (so the median) times 1 + slowdown
  double clock_mhz = 0;  // > 0: the clock of every point, at unchanged cycles
};

// What the pipeline wrote for the held-out runs, pooled over every rotation.
struct Pooled {
  int good = 0;         // good points judged (59 per held-out run)
  int regressions = 0;  // REGRESSION rows
  int suspected_code = 0;
  int dismissed_environment = 0;
  int any = 0;  // rows of any kind
  int runs_with_job = 0;
};

class FixturePipelineTest : public AnalysisTest {
 protected:
  void SetUp() override {
    AnalysisTest::SetUp();
    if (HasFatalFailure()) return;
    for (char gpu : {'a', 'b'}) {
      std::vector<detect::power::FixtureRun> runs;
      for (const std::string& path : detect::power::FindRepeatedRunFixtures(kFixtures)) {
        if (path.find(std::string("h100_run_") + gpu) == std::string::npos) continue;
        auto run = detect::power::ReadRunFixture(path, /*with_samples=*/true);
        ASSERT_TRUE(run.ok()) << run.status().ToString();
        runs.push_back(std::move(*run));
      }
      if (runs.size() != 4) GTEST_SKIP() << "no repeated-run fixtures for GPU " << gpu;
      gpus_.push_back(std::move(runs));
    }
    config_.detection.min_baseline_runs = 3;
  }

  // Leave-one-out through the database: for each GPU and each of its 4 runs, an empty database
  // gets the 3 other runs as measured, then the held-out run as `scenario` makes it; all four are
  // analysed. 2 x 4 held-out runs x 59 good points = 472 decisions, as in the detector's study.
  Pooled Analyse(const Scenario& scenario) {
    Pooled pooled;
    for (const std::vector<detect::power::FixtureRun>& runs : gpus_) {
      for (size_t held_out = 0; held_out < runs.size(); ++held_out) {
        Sql("TRUNCATE run, job, measurement, regression, regression_event, change_point"
            " RESTART IDENTITY CASCADE");
        for (size_t r = 0; r < runs.size(); ++r) {
          if (r != held_out)
            AddRun(PointsOf(runs[r], Scenario(), nullptr), OnDevice(runs[r].device_uuid));
        }
        const int64_t run = AddRun(PointsOf(runs[held_out], scenario, &pooled.good),
                                   OnDevice(runs[held_out].device_uuid));
        EXPECT_EQ(AnalyzeAll(), 4);
        pooled.regressions += Rows(run, "kind = 'REGRESSION'");
        pooled.suspected_code +=
            Rows(run, "kind = 'REGRESSION' AND state = 'SUSPECTED' AND blame = 'CODE'");
        pooled.dismissed_environment +=
            Rows(run, "kind = 'REGRESSION' AND state = 'DISMISSED' AND blame = 'ENVIRONMENT'");
        pooled.any += Rows(run, "true");
        pooled.runs_with_job +=
            Sql("SELECT count(*) FROM job WHERE confirms_run_id = $1 AND selector_gpu_uuid = $2",
                run, runs[held_out].device_uuid)
                .at(0)
                .at(0)
                .as<int>();
      }
    }
    return pooled;
  }

  static std::vector<Point> PointsOf(const detect::power::FixtureRun& run, const Scenario& scenario,
                                     int* good) {
    std::vector<Point> points;
    for (const detect::CasePoint& c : run.cases) {
      Point p = PointOf(c);
      double factor = 1 + scenario.slowdown;
      if (scenario.clock_mhz > 0 && p.clock_mhz > 0) {
        factor = p.clock_mhz / scenario.clock_mhz;  // same cycles at the lower clock
        p.clock_mhz = scenario.clock_mhz;
      }
      p.median *= factor;
      for (double& x : p.samples) x *= factor;
      if (good != nullptr && p.ok && p.verified && p.throttled <= 0.05) ++*good;
      points.push_back(std::move(p));
    }
    return points;
  }

  int Rows(int64_t run, const std::string& where) {
    return Sql("SELECT count(*) FROM regression WHERE run_id = $1 AND " + where, run)
        .at(0)
        .at(0)
        .as<int>();
  }

  std::vector<std::vector<detect::power::FixtureRun>> gpus_;  // [gpu][run], oldest first
};

// The pooled figures, for docs/results/detection_power.md.
void Report(const char* scenario, const Pooled& p) {
  std::printf(
      "pipeline leave-one-out, %s: %d good decisions, REGRESSION rows %d (SUSPECTED/CODE "
      "%d, DISMISSED/ENVIRONMENT %d), rows of any kind %d, confirmation jobs %d\n",
      scenario, p.good, p.regressions, p.suspected_code, p.dismissed_environment, p.any,
      p.runs_with_job);
}

TEST_F(FixturePipelineTest, IdenticalCodeRaisesAtMostOnePercentFalseAlarms) {
  const Pooled p = Analyse(Scenario());
  Report("A/A", p);
  EXPECT_EQ(p.good, 472);
  EXPECT_LE(p.regressions, 0.01 * p.good) << p.regressions << " of " << p.good;
  EXPECT_LE(p.any, 0.01 * p.good) << p.any << " of " << p.good;
}

TEST_F(FixturePipelineTest, AThreePercentSlowdownIsCaughtInAtLeastNinetyFivePercentOfDecisions) {
  const Pooled p = Analyse(Scenario{0.03, 0});
  Report("+3 %", p);
  EXPECT_GE(p.suspected_code, 0.95 * p.good) << p.suspected_code << " of " << p.good;
  EXPECT_EQ(p.runs_with_job, 8);  // one confirmation job per held-out run, on its own GPU
}

TEST_F(FixturePipelineTest, AFivePercentSlowdownIsCaughtInAtLeastNinetyNinePercentOfDecisions) {
  const Pooled p = Analyse(Scenario{0.05, 0});
  Report("+5 %", p);
  EXPECT_GE(p.suspected_code, 0.99 * p.good) << p.suspected_code << " of " << p.good;
  EXPECT_EQ(Sql("SELECT count(*) FROM regression WHERE kind = 'REGRESSION' AND p_value IS NULL")
                .at(0)
                .at(0)
                .as<int>(),
            0);  // the U-test ran on the stored samples
}

TEST_F(FixturePipelineTest, AClockDropWithUnchangedCyclesIsBlamedOnTheGpuAndOpensNothing) {
  const Pooled p = Analyse(Scenario{0, 1700});
  Report("clock 1700 MHz, cycles unchanged", p);
  EXPECT_GE(p.dismissed_environment, 0.99 * p.good) << p.dismissed_environment << " of " << p.good;
  EXPECT_EQ(p.suspected_code, 0);
  EXPECT_EQ(p.runs_with_job, 0);
}

}  // namespace
}  // namespace warpwatch::server::testing
