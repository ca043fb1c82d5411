// Which regression row a verdict becomes, and in which state (no database).
#include "server/analysis/finding_builder.h"

#include <gtest/gtest.h>

namespace warpwatch::server::analysis {
namespace {

ClaimedRun ClaimedRunOf(int64_t job_id = 7) {
  ClaimedRun run;
  run.run_id = 100;
  run.job_id = job_id;
  run.device_uuid = "GPU-a";
  run.gpu_model = "H100";
  return run;
}

RunCase CopyCase() {
  RunCase c;
  c.measurement_id = 5;
  c.case_canonical = "memory.coalescing/copy?n=1";
  c.family = "memory.coalescing";
  c.variant = "copy";
  c.series_id = c.case_canonical + "@H100";
  c.point.sm_clock_mhz = 1980;
  return c;
}

detect::SeriesDecision Decision(detect::Verdict verdict, detect::Blame blame) {
  detect::SeriesDecision d;
  d.verdict = verdict;
  d.blame = blame;
  d.baseline_runs_used = 10;
  d.baseline_run_ids = {1, 2, 3};
  d.time.baseline = 1e-4;
  d.time.value = 1.05e-4;
  d.time.change = 0.05;
  d.time.z = 9;
  d.u_test_p_value = 1e-9;
  d.judged = true;
  d.time.p_value = 1e-6;
  d.noise.sigma_relative = 0.004;
  d.noise.dof = 12;
  d.min_detectable_change = 0.021;
  d.false_alarm_cutoff = 6.9e-5;
  d.decisions_in_run = 144;
  d.baseline_sm_clock_mhz = 1980;
  d.new_sm_clock_mhz = 1980;
  return d;
}

TEST(FindingFromDecisionTest, ACodeSlowdownIsASuspectedRegressionWithEvidence) {
  const auto f = FindingFromDecision(ClaimedRunOf(), CopyCase(),
                                     Decision(detect::Verdict::kSlower, detect::Blame::kCode), {});
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, kKindRegression);
  EXPECT_EQ(f->state, kStateSuspected);
  EXPECT_EQ(f->blame, "CODE");
  EXPECT_EQ(f->baseline_run_ids, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_DOUBLE_EQ(f->change, 0.05);
  EXPECT_DOUBLE_EQ(*f->z, 9);
  EXPECT_DOUBLE_EQ(*f->p_value, 1e-9);
  EXPECT_FALSE(f->cycles_change.has_value());
  EXPECT_EQ(f->device_uuid, "GPU-a");
  EXPECT_EQ(f->measurement_id, 5);
  EXPECT_NE(f->method.find("p <= 6.9e-05 (Benjamini-Hochberg at q 0.01 over the run's 144 "
                           "decisions)"),
            std::string::npos)
      << f->method;
  EXPECT_NE(f->method.find("|change| >= 1.00 %"), std::string::npos) << f->method;
  EXPECT_NE(f->method.find("N 10"), std::string::npos) << f->method;
  EXPECT_NE(f->method.find("sigma 0.400 %"), std::string::npos) << f->method;
  EXPECT_DOUBLE_EQ(*f->min_detectable_change, 0.021);
  EXPECT_DOUBLE_EQ(*f->noise_sigma, 0.004);
}

TEST(FindingFromDecisionTest, AFasterRunIsAnImprovement) {
  const auto f = FindingFromDecision(ClaimedRunOf(), CopyCase(),
                                     Decision(detect::Verdict::kFaster, detect::Blame::kCode), {});
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, kKindImprovement);
  EXPECT_EQ(f->state, kStateSuspected);
}

TEST(FindingFromDecisionTest, ASlowerGpuIsRecordedDismissed) {
  const auto f =
      FindingFromDecision(ClaimedRunOf(), CopyCase(),
                          Decision(detect::Verdict::kSlower, detect::Blame::kEnvironment), {});
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->state, kStateDismissed);
  EXPECT_EQ(f->blame, "ENVIRONMENT");
  EXPECT_NE(f->note.find("GPU"), std::string::npos);
}

TEST(FindingFromDecisionTest, AnUploadedRunOpensAtOnce) {
  const auto f = FindingFromDecision(ClaimedRunOf(/*job_id=*/0), CopyCase(),
                                     Decision(detect::Verdict::kSlower, detect::Blame::kCode), {});
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->state, kStateOpen);
  EXPECT_NE(f->note.find("without confirmation"), std::string::npos);
}

TEST(FindingFromDecisionTest, SameAndUnsureMakeNoRow) {
  EXPECT_FALSE(FindingFromDecision(ClaimedRunOf(), CopyCase(),
                                   Decision(detect::Verdict::kSame, detect::Blame::kNone), {})
                   .has_value());
  EXPECT_FALSE(FindingFromDecision(ClaimedRunOf(), CopyCase(),
                                   Decision(detect::Verdict::kUnsure, detect::Blame::kNone), {})
                   .has_value());
}

detect::FleetView FindingBuilderView(int64_t outlier_run) {
  detect::FleetView view;
  view.judged = true;
  for (int64_t run : {100, 101, 102, 103}) {
    detect::DeviceJudgement d;
    d.run_id = run;
    d.device_uuid = "GPU-" + std::to_string(run);
    d.median_seconds = run == outlier_run ? 1.1e-4 : 1e-4;
    d.others_median = 1e-4;
    d.change = run == outlier_run ? 0.1 : 0;
    d.z = run == outlier_run ? 30 : 0;
    d.outlier = run == outlier_run;
    d.direction = run == outlier_run ? detect::Verdict::kSlower : detect::Verdict::kSame;
    view.devices.push_back(d);
  }
  return view;
}

TEST(FindingFromFleetTest, TheRunsOwnDeviceAsOutlierIsAnOpenOutlier) {
  const auto findings = FindingsFromFleet(ClaimedRunOf(), CopyCase(), FindingBuilderView(100), {});
  ASSERT_EQ(findings.size(), 1u);
  const Finding* f = &findings[0];
  EXPECT_EQ(f->run_id, 0);  // the claimed run
  EXPECT_EQ(f->measurement_id, 5);
  EXPECT_EQ(f->kind, kKindOutlier);
  EXPECT_EQ(f->state, kStateOpen);
  EXPECT_EQ(f->baseline_run_ids, (std::vector<int64_t>{101, 102, 103}));
  EXPECT_DOUBLE_EQ(f->change, 0.1);
  EXPECT_NE(f->method.find("3 good devices"), std::string::npos) << f->method;
}

TEST(FindingFromFleetTest, AnotherDevicesOutlierIsReportedUnderItsOwnRun) {
  const auto findings = FindingsFromFleet(ClaimedRunOf(), CopyCase(), FindingBuilderView(102), {});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].run_id, 102);
  EXPECT_EQ(findings[0].device_uuid, "GPU-102");
  EXPECT_EQ(findings[0].measurement_id, 0);
  EXPECT_EQ(findings[0].baseline_run_ids, (std::vector<int64_t>{100, 101, 103}));
  EXPECT_NE(findings[0].note.find("joined the night"), std::string::npos) << findings[0].note;
  detect::FleetView unjudged = FindingBuilderView(100);
  unjudged.judged = false;
  EXPECT_TRUE(FindingsFromFleet(ClaimedRunOf(), CopyCase(), unjudged, {}).empty());
}

}  // namespace
}  // namespace warpwatch::server::analysis
