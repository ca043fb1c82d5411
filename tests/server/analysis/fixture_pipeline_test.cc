// The whole analysis pipeline (PostgreSQL store, AnalyzeRun, regression rows, confirmation jobs,
// one report per change) on the real repeated H100 runs of tests/fixtures/h100_nightly_runs
// (16 back-to-back runs of the whole 144-point suite, two leases; its README), each lease's runs
// fed in order as nights of its GPU, each analysed as it arrives:
//  - identical code: every run as measured raises no SLOWER;
//  - a +3 % step that stays four nights (every sample of the real runs scaled from the sixth night
//    on): one finding per case and one confirmation job, then the later nights attach to the
//    findings;
//  - an accepted level stops the flags; a returned level closes the findings.
// docs/regressions.md and docs/results/detection_power.md report the figures it prints.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "tests/server/analysis/analysis_test_util.h"
#include "tests/server/detect/power/fixture_reader.h"
#include "tests/server/detect/power/power_study.h"

namespace warpwatch::server::testing {
namespace {

const std::string kFixturePipelineFixtures = WARPWATCH_FIXTURES_DIR;
constexpr size_t kBaselineNights = 5;  // DetectionConfig::min_baseline_runs
constexpr size_t kStepNights = 4;      // the four nights at the new level

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

// Every point of `run`, every sample (so the median) times `factor`.
std::vector<Point> PointsOf(const detect::power::FixtureRun& run, double factor) {
  std::vector<Point> points;
  for (const detect::CasePoint& c : run.cases) {
    Point p = PointOf(c);
    p.median *= factor;
    for (double& x : p.samples) x *= factor;
    points.push_back(std::move(p));
  }
  return points;
}

class FixturePipelineTest : public AnalysisTest {
 protected:
  void SetUp() override {
    AnalysisTest::SetUp();
    if (HasFatalFailure()) return;
    const auto paths =
        detect::power::FindRunFixturesIn(kFixturePipelineFixtures + "/h100_nightly_runs");
    for (const std::string& path : paths) {
      auto run = detect::power::ReadRunFixture(path, /*with_samples=*/true);
      ASSERT_TRUE(run.ok()) << run.status().ToString();
      leases_[run->device_uuid].push_back(std::move(*run));  // oldest first
    }
    if (paths.size() < 16) GTEST_SKIP() << "no repeated-run fixtures (h100_nightly_runs/)";
  }

  // The cases whose minimum detectable change is <= 2 % in the detector's own study of these runs
  // (detect_power's leave-one-out over all 16, docs/results/detection_power.md): the cases the
  // issue asks +3 % to be caught on. A GPU with only 5 nights of history publishes larger ones.
  static std::set<std::string> QuietCases() {
    const auto paths =
        detect::power::FindRunFixturesIn(kFixturePipelineFixtures + "/h100_nightly_runs");
    auto repeated = detect::power::LoadRepeatedRuns(paths, /*with_samples=*/false);
    std::set<std::string> quiet;
    if (!repeated.ok()) return quiet;
    const detect::power::PowerFigures f =
        detect::power::LeaveOneOutPower(repeated->runs, repeated->case_keys,
                                        detect::DetectionConfig(), detect::power::PowerOptions());
    for (const detect::power::CaseMdc& c : f.case_mdc) {
      if (c.mdc <= 0.02) quiet.insert(c.case_key);
    }
    return quiet;
  }

  // Night `n` of a GPU: its run at `factor`, analysed; then its confirmation job, if the night
  // queued one, run on the same night's measurements and analysed. Returns the night's run id.
  int64_t Night(const detect::power::FixtureRun& run, double factor) {
    const int64_t id = AddRun(PointsOf(run, factor), OnDevice(run.device_uuid));
    EXPECT_EQ(AnalyzeAll(), 1);
    pqxx::result job = Sql("SELECT id FROM job WHERE confirms_run_id = $1", id);
    if (!job.empty()) {
      AddRun(PointsOf(run, factor), OfJob(job[0][0].as<int64_t>(), run.device_uuid));
      EXPECT_EQ(AnalyzeAll(), 1);
    }
    return id;
  }
  int Count(const std::string& sql) { return Sql(sql).at(0).at(0).as<int>(); }

  std::map<std::string, std::vector<detect::power::FixtureRun>> leases_;  // by GPU
};

TEST_F(FixturePipelineTest, IdenticalCodeRaisesNoSlowerOnAnyCase) {
  int judged_runs = 0;
  for (const auto& [gpu, runs] : leases_) {
    for (size_t n = 0; n < runs.size(); ++n) {
      Night(runs[n], 1.0);
      if (n >= kBaselineNights) ++judged_runs;
    }
  }
  const int judged = Count("SELECT coalesce(sum((analysis_coverage->>'judged')::int), 0) FROM run");
  const int slower = Count("SELECT count(*) FROM regression WHERE kind = 'REGRESSION'");
  const int any = Count("SELECT count(*) FROM regression WHERE kind <> 'OUTLIER'");
  std::printf("pipeline, identical code: %d runs judged, %d case decisions, %d SLOWER, %d rows\n",
              judged_runs, judged, slower, any);
  EXPECT_GE(judged, judged_runs * 100);  // most of the 144 cases of each judged run
  EXPECT_EQ(slower, 0);
}

TEST_F(FixturePipelineTest, AStepThatStaysIsOneFindingAndOneConfirmationPerCaseThenSilence) {
  const auto& [gpu, runs] = *leases_.begin();
  for (size_t n = 0; n < kBaselineNights; ++n) Night(runs[n], 1.0);
  // Four nights at the new level, as in the issue: a GPU's lease holds 8 runs, so after its 5
  // baseline nights the fourth step night is its first run again (back-to-back runs of identical
  // code are exchangeable; it is a real measurement of this GPU, scaled like the others).
  std::vector<int64_t> step_nights;
  for (size_t k = 0; k < kStepNights; ++k) {
    const size_t n = kBaselineNights + k;
    step_nights.push_back(Night(runs[n < runs.size() ? n : n - runs.size()], 1.03));
  }
  const int findings = Count("SELECT count(*) FROM regression WHERE kind = 'REGRESSION'");
  const int per_case_max = Count(
      "SELECT coalesce(max(c), 0) FROM (SELECT count(*) AS c FROM regression"
      " WHERE kind = 'REGRESSION' GROUP BY case_canonical) t");
  const int jobs = Count("SELECT count(*) FROM job WHERE confirms_run_id IS NOT NULL");
  const int later_rows = Count("SELECT count(*) FROM regression WHERE run_id <> " +
                               std::to_string(step_nights.front()) + " AND kind <> 'OUTLIER'");
  const std::set<std::string> quiet_cases = QuietCases();
  const int quiet = static_cast<int>(quiet_cases.size());
  int quiet_found = 0;
  for (const pqxx::row& row :
       Sql("SELECT DISTINCT case_canonical FROM regression WHERE kind = 'REGRESSION'")) {
    if (quiet_cases.count(row[0].as<std::string>())) ++quiet_found;
  }
  const int attached = Count("SELECT coalesce(sum(runs_at_level - 1), 0) FROM regression");
  std::printf(
      "pipeline, +3 %% from night %zu on %s (%zu step nights): %d findings (%d of the %d cases "
      "with MDC <= 2 %%), %d confirmation jobs, %d rows after the first step night, %d later runs "
      "attached\n",
      kBaselineNights + 1, gpu.c_str(), step_nights.size(), findings, quiet_found, quiet, jobs,
      later_rows, attached);
  EXPECT_EQ(per_case_max, 1);
  EXPECT_EQ(jobs, 1);
  EXPECT_EQ(later_rows, 0);
  EXPECT_GE(quiet, 100);  // the study's 114
  EXPECT_GE(quiet_found, 0.95 * quiet);
  EXPECT_EQ(step_nights.size(), kStepNights);
  // Every finding saw the later nights at its level: three more runs each, where the case stayed
  // judged (a case may be UNSURE on a night, so at least one).
  EXPECT_GE(attached, findings);
}

TEST_F(FixturePipelineTest, AnAcceptedLevelStopsTheFlags) {
  const auto& [gpu, runs] = *leases_.begin();
  for (size_t n = 0; n < kBaselineNights; ++n) Night(runs[n], 1.0);
  Night(runs[kBaselineNights], 1.03);
  ASSERT_GT(Count("SELECT count(*) FROM regression WHERE kind = 'REGRESSION'"), 0);
  const int findings = Count("SELECT count(*) FROM regression WHERE kind <> 'OUTLIER'");
  for (const pqxx::row& row : Sql("SELECT id FROM regression WHERE state = 'OPEN'")) {
    ASSERT_OK(store_
                  ->UpdateRegression(row[0].as<int64_t>(), v1::REGRESSION_STATE_ACCEPTED,
                                     "new toolchain", "alice")
                  .status());
  }
  const int last_before = Count("SELECT max(id) FROM regression");
  for (size_t n = kBaselineNights + 1; n < runs.size(); ++n) Night(runs[n], 1.03);
  std::string extra;
  for (const pqxx::row& row :
       Sql("SELECT case_canonical || ' ' || kind || ' ' || state || ' ' || round(change::numeric,"
           " 4) || ' run ' || run_id FROM regression WHERE id > $1 AND kind <> 'OUTLIER'",
           last_before)) {
    extra += row[0].as<std::string>() + "\n";
  }
  EXPECT_EQ(Count("SELECT count(*) FROM regression WHERE kind <> 'OUTLIER'"), findings) << extra;
}

TEST_F(FixturePipelineTest, AReturnedLevelClosesTheFindings) {
  const auto& [gpu, runs] = *leases_.begin();
  for (size_t n = 0; n < kBaselineNights; ++n) Night(runs[n], 1.0);
  Night(runs[kBaselineNights], 1.03);
  Night(runs[kBaselineNights + 1], 1.03);
  const int open = Count("SELECT count(*) FROM regression WHERE state = 'OPEN'");
  ASSERT_GT(open, 0);
  const int64_t back = Night(runs[kBaselineNights + 2], 1.0);
  const int closed = Count(
      "SELECT count(*) FROM regression WHERE state = 'FIXED' AND"
      " closed_run_id = " +
      std::to_string(back));
  std::printf(
      "pipeline, +3 %% for two nights then back: %d OPEN findings, %d closed by the "
      "return\n",
      open, closed);
  EXPECT_GE(closed, 0.95 * open);
  EXPECT_EQ(Count("SELECT count(*) FROM regression WHERE run_id = " + std::to_string(back)), 0);
}

}  // namespace
}  // namespace warpwatch::server::testing
