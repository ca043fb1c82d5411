// File: tests/server/incidents/counter_evidence_store_test.cc
// Counters where they explain (issue 26 item 3), on a real PostgreSQL: nightly runs skip the
// counter pass, so the analysis queues one counter job per GPU and level, a confirmation collects
// the new level's counters, and the finding's explanation diffs the two.
#include <gtest/gtest.h>

#include "server/analysis/counter_plan.h"
#include "server/store/detail/conversions.h"
#include "tests/server/incidents/incident_test_fixture.h"

namespace warpwatch::server::testing {
namespace {

constexpr const char* kDram = "dram__throughput.avg.pct_of_peak_sustained_elapsed";

class CounterEvidenceTest : public IncidentTest {
 protected:
  // Two cases of one run on GPU A, case 0 scaled by `scale`, with `dram` as their counter when
  // it is positive.
  std::vector<Point> Cases(double scale = 1.0, double dram = 0) {
    std::normal_distribution<double> noise(0, 0.002);
    std::vector<Point> points = {Case(0), Case(1)};
    points[0].median *= scale;
    for (Point& p : points) {
      p.median *= 1 + noise(rng_);
      if (dram > 0) p.counters[kDram] = dram;
    }
    return points;
  }
  // A run (of a new nightly job, or of `job`), analysed and swept as the server does.
  int64_t Run(const std::vector<Point>& points, const RunOptions& options = {}) {
    const int64_t run = AddRun(points, options);
    EXPECT_EQ(AnalyzeAll(), 1);
    Sweep();
    return run;
  }
  int CounterJobs() {
    return Sql("SELECT count(*) FROM job WHERE labels ? $1",
               std::string(analysis::kCountersForRunLabel))
        .at(0)
        .at(0)
        .as<int>();
  }
  // The id of the (one) counter job queued so far.
  int64_t CounterJob() {
    return Sql("SELECT id FROM job WHERE labels ? $1", std::string(analysis::kCountersForRunLabel))
        .at(0)
        .at(0)
        .as<int64_t>();
  }
  v1::JobSpec SpecOf(int64_t job) {
    v1::JobSpec spec;
    EXPECT_TRUE(detail::MessageFromJson(
                    Sql("SELECT spec::text FROM job WHERE id = $1", job).at(0).at(0).as<std::string>(),
                    &spec)
                    .ok());
    return spec;
  }
};

TEST_F(CounterEvidenceTest, OneCounterJobPerGpuAndLevelThenTheFindingDiffsItWithItsConfirmation) {
  const int64_t first = Run(Cases());
  ASSERT_EQ(CounterJobs(), 1);  // the GPU's first run: its cases have no counters
  pqxx::result job = Sql(
      "SELECT id, selector_gpu_uuid, submitted_by, priority FROM job WHERE labels ? $1",
      std::string(analysis::kCountersForRunLabel));
  const int64_t counter_job = job[0][0].as<int64_t>();
  EXPECT_EQ(job[0][1].as<std::string>(), kDeviceA);
  EXPECT_EQ(job[0][2].as<std::string>(), "detector");
  EXPECT_EQ(job[0][3].as<int>(), 4);  // behind the nightly job (5) it serves
  const v1::JobSpec spec = SpecOf(counter_job);
  EXPECT_TRUE(spec.measurement().collect_counters());
  EXPECT_EQ(spec.labels().at(analysis::kCountersForRunLabel), std::to_string(first));
  for (int n = 0; n < 5; ++n) Run(Cases());
  EXPECT_EQ(CounterJobs(), 1);  // one at a time: the first is still queued

  const int64_t counter_run = Run(Cases(1.0, 84), OfJob(counter_job));
  Sql("UPDATE job SET state = 'SUCCEEDED' WHERE id = $1", counter_job);
  Run(Cases());
  EXPECT_EQ(CounterJobs(), 1);  // the level has its counters now

  const int64_t slow = Run(Cases(1.08));
  pqxx::result finding =
      Sql("SELECT id, state, confirmation_job_id FROM regression WHERE run_id = $1", slow);
  ASSERT_EQ(finding.size(), 1u);
  EXPECT_EQ(finding[0][1].as<std::string>(), "SUSPECTED");
  const int64_t id = finding[0][0].as<int64_t>();
  const int64_t confirmation_job = finding[0][2].as<int64_t>();
  EXPECT_TRUE(SpecOf(confirmation_job).measurement().collect_counters());
  StatusOr<v1::Regression> before = incidents_->ExplainFinding(id);
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  EXPECT_EQ(before->explanation().counters_size(), 0);  // no new-level counters yet
  EXPECT_NE(before->explanation().counters_note().find("the new run has no counters"),
            std::string::npos)
      << before->explanation().counters_note();

  std::vector<Point> confirming = Cases(1.08, 71);
  confirming.resize(1);  // the suspect alone
  const int64_t confirmation = Run(confirming, OfJob(confirmation_job));
  StatusOr<v1::Regression> after = incidents_->ExplainFinding(id);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->state(), v1::REGRESSION_STATE_OPEN);
  const v1::Explanation& x = after->explanation();
  ASSERT_EQ(x.counters_size(), 1) << x.counters_note();
  EXPECT_EQ(x.counters(0).counter(), kDram);
  EXPECT_DOUBLE_EQ(x.counters(0).baseline(), 84);
  EXPECT_DOUBLE_EQ(x.counters(0).new_value(), 71);
  ASSERT_EQ(x.counter_baseline_run_ids_size(), 1);
  EXPECT_EQ(x.counter_baseline_run_ids(0), counter_run);
  EXPECT_EQ(x.counter_run_id(), confirmation);
  // Re-explaining it kept it in its incident without reopening or duplicating anything.
  EXPECT_EQ(Sql("SELECT count(*) FROM incident_event WHERE to_state = 'REOPENED'")
                .at(0)
                .at(0)
                .as<int>(),
            0);

  // The new level has counters (the confirmation's): no counter job for it.
  Run(Cases(1.08));
  EXPECT_EQ(CounterJobs(), 1);
}

TEST_F(CounterEvidenceTest, UploadedRunsAndRunsWithCountersQueueNoCounterJob) {
  RunOptions uploaded;
  uploaded.uploaded = true;  // no worker to run it on
  Run(Cases(), uploaded);
  Run(Cases(1.0, 80), MeasuredWith("{\"max_samples\": 2000, \"collect_counters\": true}"));
  EXPECT_EQ(CounterJobs(), 0);
}

// A counter job's run is evidence, not a candidate: the nightly run it re-measures was judged
// already, so a change seen again in the counters=on series is not a second report. Found by the
// end-to-end clock-drop scenario (tests/e2e/incident_e2e_test.cc), where the counter runs of a
// GPU formed a series of their own and opened a SOFTWARE incident over their run-id label.
TEST_F(CounterEvidenceTest, ACounterJobsRunsAreNeverJudged) {
  Run(Cases());
  const int64_t counter_job = CounterJob();
  for (int n = 0; n < 6; ++n) Run(Cases(1.0, 84), OfJob(counter_job));  // a counters=on history
  const int64_t slower = Run(Cases(1.3, 84), OfJob(counter_job));
  EXPECT_EQ(Sql("SELECT count(*) FROM regression WHERE run_id = $1", slower).at(0).at(0).as<int>(),
            0);
  EXPECT_EQ(Sql("SELECT count(*) FROM run WHERE id = $1 AND analysis_state = 'DONE'", slower)
                .at(0)
                .at(0)
                .as<int>(),
            1);
}

// A case the counter pass cannot measure (its note says why: no kernel in the timed region) does
// not get a counter job every night.
TEST_F(CounterEvidenceTest, ACaseTheCounterPassCannotMeasureIsAskedForOncePerLevel) {
  Run(Cases());
  const int64_t counter_job = CounterJob();
  std::vector<Point> measured = Cases(1.0, 84);
  measured[1].counters.clear();
  measured[1].counters_note = "counters unavailable: the timed region launches no kernel";
  Run(measured, OfJob(counter_job));
  Sql("UPDATE job SET state = 'SUCCEEDED' WHERE id = $1", counter_job);
  for (int n = 0; n < 3; ++n) Run(Cases());
  EXPECT_EQ(CounterJobs(), 1);
}

TEST_F(CounterEvidenceTest, CountersOfAnotherLevelAreNeverTheBaselines) {
  for (int n = 0; n < 6; ++n) Run(Cases());
  const int64_t counter_job = CounterJob();
  Run(Cases(1.0, 84), OfJob(counter_job));
  Sql("UPDATE job SET state = 'SUCCEEDED' WHERE id = $1", counter_job);
  // Then case 0's level changed on this GPU: an earlier finding, closed FIXED after the counters.
  const int64_t earlier = Run(Cases());
  Sql("INSERT INTO regression (series_id, case_canonical, family, gpu_model, run_id,"
      " baseline_median_seconds, new_median_seconds, change, method, state, kind, device_uuid,"
      " updated_at)"
      " VALUES ($1, $2, 'memory.coalescing', $3, $4, 1e-4, 1.1e-4, 0.1, 'test', 'FIXED',"
      " 'REGRESSION', $5, now())",
      SeriesOf(Case(0)), Canonical(Case(0)), std::string(kModel), earlier, std::string(kDeviceA));
  Run(Cases());  // case 0 lacks counters at its new level, case 1 has them
  pqxx::result second =
      Sql("SELECT id FROM job WHERE labels ? $1 AND state = 'QUEUED'",
          std::string(analysis::kCountersForRunLabel));
  ASSERT_EQ(second.size(), 1u);
  const v1::JobSpec spec = SpecOf(second[0][0].as<int64_t>());
  ASSERT_EQ(spec.axes_size(), 2);  // block_size and n of case 0 alone
  EXPECT_EQ(spec.axes(1).axis(), "n");
  ASSERT_EQ(spec.axes(1).values_size(), 1);
  EXPECT_EQ(spec.axes(1).values(0), Case(0).params.at("n"));

  const int64_t slow = Run(Cases(1.08));
  pqxx::result finding = Sql(
      "SELECT id, confirmation_job_id FROM regression WHERE run_id = $1 AND kind = 'REGRESSION'",
      slow);
  ASSERT_EQ(finding.size(), 1u);
  std::vector<Point> confirming = Cases(1.08, 71);
  confirming.resize(1);
  Run(confirming, OfJob(finding[0][1].as<int64_t>()));
  StatusOr<v1::Regression> x = incidents_->ExplainFinding(finding[0][0].as<int64_t>());
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  EXPECT_EQ(x->explanation().counters_size(), 0);  // the 84 belongs to the level before
  EXPECT_EQ(x->explanation().counter_baseline_run_ids_size(), 0);
  EXPECT_NE(x->explanation().counters_note().find("the baseline runs have no counters"),
            std::string::npos)
      << x->explanation().counters_note();
}

}  // namespace
}  // namespace warpwatch::server::testing
