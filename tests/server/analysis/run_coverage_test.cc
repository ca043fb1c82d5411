// What each analysed run records of its own analysis, on a real PostgreSQL: how many cases were
// judged and why the rest were not (run.analysis_coverage, on Run and Job), and each judged
// point's series sensitivity on its GPU (docs/regressions.md "Coverage of each run").
#include <gtest/gtest.h>

#include "tests/server/analysis/run_analyzer_fixture.h"

namespace warpwatch::server::testing {
namespace {

TEST_F(RunAnalyzerTest, EachRunRecordsWhatWasJudgedAndWhyTheRestWasNot) {
  AddBaseline();
  Point unverified = Strided(4);
  unverified.verified = false;
  Point throttled = Strided(8);
  throttled.throttled = 0.5;
  const int64_t run = AddRun({Copy(), Reduce(), Strided(2), unverified, throttled, Strided(16)});
  ASSERT_EQ(AnalyzeAll(), 1);
  ASSERT_OK_AND_ASSIGN(v1::Run stored, store_->GetRun(run));
  const v1::AnalysisCoverage& coverage = stored.analysis();
  EXPECT_EQ(coverage.state(), "DONE");
  EXPECT_EQ(coverage.cases(), 6);
  EXPECT_EQ(coverage.judged(), 3);
  EXPECT_EQ(coverage.attached(), 0);
  ASSERT_EQ(coverage.unsure_size(), 3) << stored.DebugString();
  EXPECT_EQ(coverage.unsure().at("unverified"), 1);
  EXPECT_EQ(coverage.unsure().at("throttled"), 1);
  EXPECT_EQ(coverage.unsure().at("too_few_runs"), 1);  // Strided(16) has no history
  // Each judged point shows its series' sensitivity on this GPU; an unjudged one has none yet.
  MeasurementQuery query;
  query.run_id = run;
  ASSERT_OK_AND_ASSIGN(MeasurementPage page, store_->QueryMeasurements(query));
  ASSERT_EQ(page.measurements.size(), 6u);
  for (const v1::Measurement& m : page.measurements) {
    const bool judged = m.case_().canonical() == Canonical(Copy()) ||
                        m.case_().canonical() == Canonical(Reduce()) ||
                        m.case_().canonical() == Canonical(Strided(2));
    EXPECT_EQ(m.has_min_detectable_change(), judged) << m.case_().canonical();
    if (judged) {
      EXPECT_GE(m.min_detectable_change(), 0.01);  // the minimum change at least
      EXPECT_GT(m.noise_sigma(), 0);
    }
  }
  // The job shows its (current) run's coverage too.
  ASSERT_OK_AND_ASSIGN(v1::Job job, store_->GetJob(stored.job_id()));
  EXPECT_EQ(job.analysis().judged(), 3);
  EXPECT_EQ(job.analysis().unsure().at("unverified"), 1);
}

}  // namespace
}  // namespace warpwatch::server::testing
