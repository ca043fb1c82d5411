// The analysis of finished runs end to end on a real PostgreSQL: regression rows with their
// evidence, the confirmation job and what its run decides, what never forms a baseline, and the
// decisions documented in docs/regressions.md ("Detection on every finished run").
#include <gtest/gtest.h>

#include <thread>

#include "server/analysis/confirmation_plan.h"
#include "server/store/detail/conversions.h"
#include "tests/server/analysis/run_analyzer_fixture.h"

namespace warpwatch::server::testing {
namespace {

TEST_F(RunAnalyzerTest, ASlowerRunGetsASuspectedRegressionWithItsEvidence) {
  const std::vector<int64_t> baseline = AddBaseline();
  const int64_t run = AddRun({Copy(1.05e-4), Reduce(), Strided(2)});
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r = Sql(
      "SELECT kind, state, case_canonical, series_id, family, variant, gpu_model, device_uuid,"
      " baseline_run_ids::text, baseline_median_seconds, new_median_seconds, change, z, p_value,"
      " blame, method, cycles_change, baseline_sm_clock_mhz, new_sm_clock_mhz, measurement_id"
      " FROM regression WHERE run_id = $1",
      run);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), "REGRESSION");
  EXPECT_EQ(r[0][1].as<std::string>(), "SUSPECTED");
  EXPECT_EQ(r[0][2].as<std::string>(), Canonical(Copy()));
  EXPECT_EQ(r[0][3].as<std::string>(), SeriesOf(Copy()));
  EXPECT_EQ(r[0][4].as<std::string>(), "memory.coalescing");
  EXPECT_EQ(r[0][5].as<std::string>(), "copy");
  EXPECT_EQ(r[0][6].as<std::string>(), kModel);
  EXPECT_EQ(r[0][7].as<std::string>(), kDeviceA);
  EXPECT_EQ(r[0][8].as<std::string>(), detail::BigintArrayLiteral(baseline));
  EXPECT_NEAR(r[0][9].as<double>(), 1e-4, 1e-4 * 3 * kNoise);
  EXPECT_DOUBLE_EQ(r[0][10].as<double>(), 1.05e-4);
  EXPECT_NEAR(r[0][11].as<double>(), 0.05, 0.01);
  EXPECT_GE(r[0][12].as<double>(), 4.5);
  ASSERT_FALSE(r[0][13].is_null());  // the U-test ran on the stored samples
  EXPECT_LT(r[0][13].as<double>(), 1e-6);
  EXPECT_EQ(r[0][14].as<std::string>(), "CODE");
  EXPECT_NE(r[0][15].as<std::string>().find("noise_model"), std::string::npos);
  EXPECT_NE(r[0][15].as<std::string>().find("Benjamini-Hochberg at q 0.01 over the run's 3"),
            std::string::npos)
      << r[0][15].as<std::string>();
  EXPECT_NEAR(r[0][16].as<double>(), 0.05, 0.01);  // cycles moved with the time
  EXPECT_DOUBLE_EQ(r[0][17].as<double>(), 1980);
  EXPECT_DOUBLE_EQ(r[0][18].as<double>(), 1980);
  EXPECT_FALSE(r[0][19].is_null());
  pqxx::result events =
      Sql("SELECT from_state, to_state, actor FROM regression_event e JOIN regression g"
          " ON g.id = e.regression_id WHERE g.run_id = $1",
          run);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0][0].as<std::string>(), "");
  EXPECT_EQ(events[0][1].as<std::string>(), "SUSPECTED");
  EXPECT_EQ(events[0][2].as<std::string>(), "detector");
}

TEST_F(RunAnalyzerTest, AFasterRunGetsAnImprovement) {
  AddBaseline();
  const int64_t run = AddRun({Copy(), Reduce(2.7e-5), Strided(2)});
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r =
      Sql("SELECT kind, case_canonical, change FROM regression WHERE run_id = $1", run);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), "IMPROVEMENT");
  EXPECT_EQ(r[0][1].as<std::string>(), Canonical(Reduce()));
  EXPECT_NEAR(r[0][2].as<double>(), -0.10, 0.01);
}

TEST_F(RunAnalyzerTest, AnUnchangedRunRaisesNothing) {
  AddBaseline();
  AddRun({Copy(1.001e-4), Reduce(2.998e-5), Strided(2, 2.002e-4)});
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(Count("true"), 0);
  EXPECT_EQ(Sql("SELECT count(*) FROM job WHERE confirms_run_id IS NOT NULL").at(0).at(0).as<int>(),
            0);
}

TEST_F(RunAnalyzerTest, TooFewBaselineRunsJudgeNothing) {
  for (int i = 0; i < 4; ++i) AddRun({Copy()});
  AddRun({Copy(2e-4)});  // twice as slow, but only 4 runs before it
  ASSERT_EQ(AnalyzeAll(), 5);
  EXPECT_EQ(Count("true"), 0);
}

TEST_F(RunAnalyzerTest, SuspectsGetOneConfirmationJobOnTheSameDeviceForJustTheirCases) {
  AddBaseline();
  const int64_t run = AddRun({Copy(1.06e-4), Reduce(3.3e-5), Strided(2)});
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result jobs =
      Sql("SELECT id, spec::text, state, selector_gpu_uuid, selector_gpu_model, submitted_by,"
          " priority, points_total FROM job WHERE confirms_run_id = $1",
          run);
  ASSERT_EQ(jobs.size(), 1u);
  const int64_t job_id = jobs[0][0].as<int64_t>();
  EXPECT_EQ(jobs[0][2].as<std::string>(), "QUEUED");
  EXPECT_EQ(jobs[0][3].as<std::string>(), kDeviceA);
  EXPECT_EQ(jobs[0][4].as<std::string>(), "");
  EXPECT_EQ(jobs[0][5].as<std::string>(), "detector");
  EXPECT_EQ(jobs[0][6].as<int>(), 5);  // the original job's priority
  EXPECT_EQ(jobs[0][7].as<int>(), 2);  // the catalog's plan of the spec: the two suspects
  v1::JobSpec spec;
  ASSERT_OK(detail::MessageFromJson(jobs[0][1].as<std::string>(), &spec));
  EXPECT_EQ(spec.selector().gpu_uuid(), kDeviceA);
  EXPECT_EQ(spec.selector().gpu_model(), "");
  ASSERT_EQ(spec.families_size(), 2);
  EXPECT_EQ(spec.families(0), "memory.coalescing");
  EXPECT_EQ(spec.families(1), "reduce");
  ASSERT_EQ(spec.variants_size(), 2);
  EXPECT_EQ(spec.variants(0), "memory.coalescing/copy");
  EXPECT_EQ(spec.variants(1), "reduce/cub");  // strided (unchanged) is not re-measured
  EXPECT_EQ(spec.measurement().max_samples(), 2000);
  EXPECT_EQ(spec.labels().at("nightly"), "1");
  EXPECT_EQ(spec.labels().at(analysis::kConfirmsRunLabel), std::to_string(run));
  EXPECT_EQ(Count("confirmation_job_id = " + std::to_string(job_id)), 2);

  // Only a worker of that GPU gets it.
  v1::RegisterRequest other;
  other.set_hostname("other");
  *other.add_devices() = MakeDevice(kDeviceB, kModel);
  ASSERT_OK_AND_ASSIGN(std::string other_worker,
                       store_->RegisterWorker(other, kTestCaller, std::chrono::minutes(1)));
  ASSERT_OK_AND_ASSIGN(std::optional<Lease> none,
                       store_->ClaimJob(other_worker, kDeviceB, std::chrono::minutes(1)));
  EXPECT_FALSE(none.has_value());
  v1::RegisterRequest same;
  same.set_hostname("same");
  *same.add_devices() = MakeDevice(kDeviceA, kModel);
  ASSERT_OK_AND_ASSIGN(std::string worker,
                       store_->RegisterWorker(same, kTestCaller, std::chrono::minutes(1)));
  ASSERT_OK_AND_ASSIGN(std::optional<Lease> lease,
                       store_->ClaimJob(worker, kDeviceA, std::chrono::minutes(1)));
  ASSERT_TRUE(lease.has_value());
  EXPECT_EQ(lease->job.id(), job_id);
}

TEST_F(RunAnalyzerTest, ASuspectNoConfirmationJobCanBePlannedForOpensUnconfirmed) {
  Point gone = Copy();
  gone.family = "memory.retired_family";  // measured once, no longer in the catalog
  AddNoisyRuns(gone, 10, kNoise);
  gone.median = 1.06e-4;
  const int64_t run = AddRun({gone});
  ASSERT_EQ(AnalyzeAll(), 11);
  pqxx::result r =
      Sql("SELECT g.state, g.confirmation_job_id IS NULL, e.note FROM regression g"
          " JOIN regression_event e ON e.regression_id = g.id WHERE g.run_id = $1",
          run);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), "OPEN");
  EXPECT_TRUE(r[0][1].as<bool>());
  EXPECT_NE(r[0][2].as<std::string>().find("no confirmation job can be planned"), std::string::npos)
      << r[0][2].as<std::string>();
  EXPECT_EQ(Sql("SELECT count(*) FROM job WHERE confirms_run_id IS NOT NULL").at(0).at(0).as<int>(),
            0);
}

TEST_F(RunAnalyzerTest, AConfirmationThatAgreesOpensTheRegression) {
  AddBaseline();
  const int64_t run = AddRun({Copy(1.06e-4), Reduce(), Strided(2)});
  ASSERT_EQ(AnalyzeAll(), 1);
  const int64_t job =
      Sql("SELECT id FROM job WHERE confirms_run_id = $1", run).at(0).at(0).as<int64_t>();
  const int64_t confirmation = AddRun({Copy(1.059e-4)}, OfJob(job));
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r = Sql("SELECT state, confirmation_run_id FROM regression WHERE run_id = $1", run);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), "OPEN");
  EXPECT_EQ(r[0][1].as<int64_t>(), confirmation);
  pqxx::result e =
      Sql("SELECT from_state, to_state, actor, note FROM regression_event WHERE to_state = 'OPEN'");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0][0].as<std::string>(), "SUSPECTED");
  EXPECT_EQ(e[0][2].as<std::string>(), "detector");
  EXPECT_NE(e[0][3].as<std::string>().find("confirmed"), std::string::npos);
  // The confirmation run is not judged itself: no regression of its own, no further job.
  EXPECT_EQ(Count("run_id = " + std::to_string(confirmation)), 0);
  EXPECT_EQ(Sql("SELECT count(*) FROM job WHERE confirms_run_id IS NOT NULL").at(0).at(0).as<int>(),
            1);
}

TEST_F(RunAnalyzerTest, AConfirmationThatDisagreesRecordsNoise) {
  AddBaseline();
  const int64_t run = AddRun({Copy(1.06e-4), Reduce(3.3e-5), Strided(2)});
  ASSERT_EQ(AnalyzeAll(), 1);
  const int64_t job =
      Sql("SELECT id FROM job WHERE confirms_run_id = $1", run).at(0).at(0).as<int64_t>();
  // Copy is back at its level; Reduce stays slower.
  AddRun({Copy(1.0005e-4), Reduce(3.31e-5)}, OfJob(job));
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r =
      Sql("SELECT case_canonical, state FROM regression WHERE run_id = $1 ORDER BY id", run);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0][0].as<std::string>(), Canonical(Copy()));
  EXPECT_EQ(r[0][1].as<std::string>(), "NOISE");
  EXPECT_EQ(r[1][0].as<std::string>(), Canonical(Reduce()));
  EXPECT_EQ(r[1][1].as<std::string>(), "OPEN");
  EXPECT_EQ(Sql("SELECT count(*) FROM regression_event WHERE to_state = 'NOISE' AND actor ="
                " 'detector'")
                .at(0)
                .at(0)
                .as<int>(),
            1);
}

TEST_F(RunAnalyzerTest, ConfirmationRunsNeverServeAsBaseline) {
  AddBaseline();
  const int64_t run = AddRun({Copy(1.06e-4), Reduce(), Strided(2)});
  ASSERT_EQ(AnalyzeAll(), 1);
  const int64_t job =
      Sql("SELECT id FROM job WHERE confirms_run_id = $1", run).at(0).at(0).as<int64_t>();
  // The confirmation disagrees (NOISE), so the next slow run is judged as a new one.
  const int64_t confirmation = AddRun({Copy(1.0e-4)}, OfJob(job));
  ASSERT_EQ(AnalyzeAll(), 1);
  ASSERT_EQ(Count("state = 'NOISE'"), 1);
  const int64_t next = AddRun({Copy(1.06e-4), Reduce(), Strided(2)});
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r =
      Sql("SELECT $2 = ANY(baseline_run_ids), $3 = ANY(baseline_run_ids), baseline_run_ids::text"
          " FROM regression WHERE run_id = $1",
          next, confirmation, run);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0][0].as<bool>()) << r[0][2].as<std::string>();
  EXPECT_TRUE(r[0][1].as<bool>()) << r[0][2].as<std::string>();  // the suspect run is one
}

TEST_F(RunAnalyzerTest, ThrottledOrUnverifiedPointsNeverFormOrTriggerABaseline) {
  std::vector<int64_t> good = AddNoisyRuns(Copy(), 10, kNoise);
  // Newer runs, 5 % slower, but throttled or unverified: not baseline material.
  for (int i = 0; i < 5; ++i) {
    Point throttled = Copy(1.05e-4);
    throttled.throttled = 0.30;
    AddRun({throttled});
    Point unverified = Copy(1.05e-4);
    unverified.verified = false;
    AddRun({unverified});
  }
  ASSERT_EQ(AnalyzeAll(), 20);
  EXPECT_EQ(Count("true"), 0);  // and they trigger nothing either
  const int64_t run = AddRun({Copy(1.05e-4)});
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r =
      Sql("SELECT baseline_run_ids::text, kind FROM regression WHERE run_id = $1", run);
  ASSERT_EQ(r.size(), 1u);  // judged against the good runs only, the slowdown is found
  EXPECT_EQ(r[0][0].as<std::string>(), detail::BigintArrayLiteral(good));
  EXPECT_EQ(r[0][1].as<std::string>(), "REGRESSION");
  // A failed point neither.
  Point failed = Copy(2e-4);
  failed.ok = false;
  AddRun({failed});
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(Count("true"), 1);
}

// On a busy model the newest runs of a series may all come from other devices; the run is still
// judged against its own device's runs (prefer_same_device), not against a GPU 2 % slower.
TEST_F(RunAnalyzerTest, TheBaselineIsTheOwnDevicesRunsEvenWhenOthersRanMoreRecently) {
  config_.history_runs = 8;
  AddNoisyRuns(Copy(), 6, 0.0005, OnDevice(kDeviceA));
  AddNoisyRuns(Copy(1.02e-4), 8, 0.0005, OnDevice(kDeviceB));
  ASSERT_EQ(AnalyzeAll(), 14);
  const int64_t run = AddRun({Copy()}, OnDevice(kDeviceA));
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(Count("run_id = " + std::to_string(run)), 0);
  const int64_t slower = AddRun({Copy(1.03e-4)}, OnDevice(kDeviceA));
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r = Sql(
      "SELECT kind, (SELECT bool_and(device_uuid = $2) FROM run WHERE id = ANY(baseline_run_ids))"
      " FROM regression WHERE run_id = $1",
      slower, std::string(kDeviceA));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), "REGRESSION");
  EXPECT_TRUE(r[0][1].as<bool>());
}

TEST_F(RunAnalyzerTest, AClockDropWithUnchangedCyclesIsBlamedOnTheGpuAndNotOpened) {
  AddNoisyRuns(Copy(), 10, kNoise);
  ASSERT_EQ(AnalyzeAll(), 10);
  Point slow_gpu = Copy(1e-4 * 1980 / 1700);  // same cycles at 1700 MHz
  slow_gpu.clock_mhz = 1700;
  const int64_t run = AddRun({slow_gpu});
  ASSERT_EQ(AnalyzeAll(), 1);
  pqxx::result r =
      Sql("SELECT kind, state, blame, clock_explained, new_sm_clock_mhz, baseline_sm_clock_mhz,"
          " abs(cycles_change) < 0.01 FROM regression WHERE run_id = $1",
          run);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), "REGRESSION");
  EXPECT_EQ(r[0][1].as<std::string>(), "DISMISSED");
  EXPECT_EQ(r[0][2].as<std::string>(), "ENVIRONMENT");
  EXPECT_TRUE(r[0][3].as<bool>());
  EXPECT_DOUBLE_EQ(r[0][4].as<double>(), 1700);
  EXPECT_DOUBLE_EQ(r[0][5].as<double>(), 1980);
  EXPECT_TRUE(r[0][6].as<bool>());
  EXPECT_EQ(Sql("SELECT count(*) FROM job WHERE confirms_run_id IS NOT NULL").at(0).at(0).as<int>(),
            0);
}

TEST_F(RunAnalyzerTest, AnUploadedRunOpensWithoutConfirmation) {
  AddNoisyRuns(Copy(), 10, kNoise, Uploaded());
  const int64_t run = AddRun({Copy(1.06e-4)}, Uploaded());
  ASSERT_EQ(AnalyzeAll(), 11);
  pqxx::result r =
      Sql("SELECT state, confirmation_job_id IS NULL FROM regression WHERE run_id = $1", run);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0][0].as<std::string>(), "OPEN");
  EXPECT_TRUE(r[0][1].as<bool>());
  EXPECT_EQ(Sql("SELECT count(*) FROM job").at(0).at(0).as<int>(), 0);
}

TEST_F(RunAnalyzerTest, AnalysingARunAgainWritesNothingTwice) {
  AddBaseline();
  const int64_t run = AddRun({Copy(1.06e-4), Reduce(), Strided(2)});
  ASSERT_EQ(AnalyzeAll(), 1);
  Sql("UPDATE run SET analysis_state = 'PENDING' WHERE id = $1", run);
  ASSERT_EQ(AnalyzeAll(), 1);
  EXPECT_EQ(Count("run_id = " + std::to_string(run)), 1);
  EXPECT_EQ(Sql("SELECT count(*) FROM regression_event").at(0).at(0).as<int>(), 1);
  EXPECT_EQ(Sql("SELECT count(*) FROM job WHERE confirms_run_id IS NOT NULL").at(0).at(0).as<int>(),
            1);
}

// Two replicas (two stores, two threads) running the real analysis over the same queue: every
// run analysed once, each slowdown written once with one confirmation job, and the change-point
// rows of the shared series (taken under the series locks) neither lost nor doubled.
TEST_F(RunAnalyzerTest, TwoReplicasAnalysingAtOnceWriteEachFindingOnce) {
  std::normal_distribution<double> normal(0, kNoise);
  for (int i = 0; i < 12; ++i) {
    AddRun({Copy(1e-4 * (1 + normal(rng_))), Reduce(3e-5 * (1 + normal(rng_)))},
           OnDevice(i % 2 == 0 ? kDeviceA : kDeviceB));
  }
  std::vector<int64_t> slower;
  for (int i = 0; i < 6; ++i) {
    slower.push_back(
        AddRun({Copy(1.06e-4), Reduce(3.3e-5)}, OnDevice(i % 2 == 0 ? kDeviceA : kDeviceB)));
  }
  std::unique_ptr<analysis::AnalysisStore> other = OpenAnalysisStore();
  int claimed[2] = {0, 0};
  std::thread a([&] { claimed[0] = AnalyzeAll(analysis_store_.get()); });
  std::thread b([&] { claimed[1] = AnalyzeAll(other.get()); });
  a.join();
  b.join();
  EXPECT_EQ(claimed[0] + claimed[1], 18);
  EXPECT_EQ(Sql("SELECT count(*) FROM run WHERE analysis_state <> 'DONE'").at(0).at(0).as<int>(),
            0);
  // Each run is judged against the runs that started before it, whichever replica took it, so
  // the first slower run on each GPU is a regression; which later ones are depends on the baseline
  // they saw (deterministic), and none is written twice.
  pqxx::result dup =
      Sql("SELECT count(*) FROM (SELECT run_id, case_canonical, kind FROM regression"
          " GROUP BY 1, 2, 3 HAVING count(*) > 1) d");
  EXPECT_EQ(dup.at(0).at(0).as<int>(), 0);
  EXPECT_EQ(Count("run_id = " + std::to_string(slower[0]) + " AND kind = 'REGRESSION'"), 2);
  EXPECT_EQ(Count("run_id = " + std::to_string(slower[1]) + " AND kind = 'REGRESSION'"), 2);
  EXPECT_EQ(Sql("SELECT count(*) FROM (SELECT confirms_run_id FROM job WHERE confirms_run_id IS"
                " NOT NULL GROUP BY 1 HAVING count(*) > 1) d")
                .at(0)
                .at(0)
                .as<int>(),
            0);
  EXPECT_EQ(Sql("SELECT count(*) FROM (SELECT series_id, device_uuid, run_id FROM change_point"
                " GROUP BY 1, 2, 3 HAVING count(*) > 1) d")
                .at(0)
                .at(0)
                .as<int>(),
            0);
}

}  // namespace
}  // namespace warpwatch::server::testing
