// The analysis loop on a real PostgreSQL: a finished run is analysed within moments because the
// database's NOTIFY wakes the loop (its fallback timer is a minute), bounded passes, readiness.
#include "server/analysis/analysis_loop.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "server/analysis/run_analyzer.h"
#include "tests/server/analysis/analysis_test_util.h"

namespace warpwatch::server::testing {
namespace {

using std::chrono::milliseconds;

bool WaitFor(const std::function<bool()>& condition, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(milliseconds(50));
  }
  return condition();
}

// The fixture's store, telling the test when the loop waits for a NOTIFY: a wait that begins
// after an earlier one returned OK is on a LISTENing connection (the first one LISTENs).
class ListenProbe : public analysis::AnalysisStore {
 public:
  explicit ListenProbe(analysis::AnalysisStore* store) : store_(store) {}
  StatusOr<std::optional<int64_t>> AnalyzeNextRun(const Analyze& analyze) override {
    return store_->AnalyzeNextRun(analyze);
  }
  StatusOr<int> OpenSuspectsOfAbandonedConfirmations() override {
    return store_->OpenSuspectsOfAbandonedConfirmations();
  }
  StatusOr<int> CancelStaleConfirmations(std::chrono::seconds max_queued) override {
    return store_->CancelStaleConfirmations(max_queued);
  }
  StatusOr<bool> WaitForFinishedRun(std::chrono::milliseconds timeout) override {
    if (listening_) ++waits_listening_;
    StatusOr<bool> woken = store_->WaitForFinishedRun(timeout);
    if (woken.ok()) listening_ = true;
    return woken;
  }
  // True once the loop has finished its passes and waits on LISTEN: a run finished from now on
  // can only be analysed when its NOTIFY wakes the loop (or at the fallback timer).
  bool WaitingOnListen() const { return waits_listening_ > 0; }

 private:
  analysis::AnalysisStore* store_;
  std::atomic<bool> listening_{false};
  std::atomic<int> waits_listening_{0};
};

using AnalysisLoopTest = AnalysisTest;

TEST_F(AnalysisLoopTest, AFinishedRunIsAnalysedWhenItsNotificationArrives) {
  analysis::AnalysisLoopOptions options;
  options.fallback_interval = std::chrono::minutes(5);  // only the NOTIFY can wake it in time
  ListenProbe probe(analysis_store_.get());
  analysis::AnalysisLoop loop(&probe, options);
  loop.Start();
  // The first pass finds nothing and the loop waits on LISTEN.
  ASSERT_TRUE(WaitFor([&] { return probe.WaitingOnListen(); }, std::chrono::seconds(30)));
  const int64_t run = AddRun({Point{}});
  EXPECT_TRUE(WaitFor(
      [&] {
        return Sql("SELECT analysis_state FROM run WHERE id = $1", run)
                   .at(0)
                   .at(0)
                   .as<std::string>() == "DONE";
      },
      std::chrono::seconds(15)));
  loop.Stop();
  EXPECT_EQ(loop.analysed(), 1);
  EXPECT_EQ(loop.errors(), 0);
}

v1::Measurement MeasurementOf(double median) {
  v1::Measurement m;
  m.mutable_case_()->set_family("memory.coalescing");
  m.mutable_case_()->set_variant("copy");
  (*m.mutable_case_()->mutable_params())["n"] = 16777216;
  m.mutable_case_()->set_canonical("memory.coalescing/copy?n=16777216");
  m.set_status(v1::POINT_STATUS_OK);
  m.set_verified(true);
  m.mutable_stats()->set_median(median);
  m.set_median_sm_clock_mhz(1980);
  for (int i = 0; i < 10; ++i) m.add_samples_seconds(median);
  return m;
}

// The paths that really finish runs, with the loop running: a worker's FinishJob (the run's state
// updated) and an offline upload (StoreUploadedRun: the run inserted finished). Both notify.
TEST_F(AnalysisLoopTest, RunsFinishedByAWorkerOrUploadedAreAnalysedOnTheirNotification) {
  analysis::AnalysisLoopOptions options;
  options.fallback_interval = std::chrono::minutes(5);
  ListenProbe probe(analysis_store_.get());
  analysis::AnalysisLoop loop(&probe, options);
  loop.Start();
  ASSERT_TRUE(WaitFor([&] { return probe.WaitingOnListen(); }, std::chrono::seconds(30)));

  const std::string worker = Register({MakeDevice(kDeviceA, kModel)});
  const v1::Job job = Enqueue();
  ASSERT_OK_AND_ASSIGN(std::optional<Lease> lease,
                       store_->ClaimJob(worker, kDeviceA, std::chrono::minutes(1)));
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK(store_->UploadMeasurements(lease->run_id, worker, {}, {MeasurementOf(1e-4)}).status());
  ASSERT_OK(
      store_->FinishJob(worker, job.id(), lease->run_id, v1::JOB_OUTCOME_SUCCEEDED, "").status());
  auto state_of = [&](int64_t run) {
    return Sql("SELECT analysis_state FROM run WHERE id = $1", run).at(0).at(0).as<std::string>();
  };
  EXPECT_TRUE(WaitFor([&] { return state_of(lease->run_id) == "DONE"; }, std::chrono::seconds(15)));

  v1::RunResult result;
  result.mutable_environment()->mutable_device()->set_uuid(kDeviceB);
  result.mutable_environment()->mutable_device()->set_name(kModel);
  *result.add_measurements() = MeasurementOf(1e-4);
  ASSERT_OK_AND_ASSIGN(UploadedRun uploaded, store_->StoreUploadedRun(result, "sha-test-1", Uploader{"offline-user", false}));
  ASSERT_TRUE(uploaded.created);
  EXPECT_TRUE(
      WaitFor([&] { return state_of(uploaded.run.id()) == "DONE"; }, std::chrono::seconds(15)));
  loop.Stop();
  EXPECT_EQ(loop.analysed(), 2);
  EXPECT_EQ(loop.errors(), 0);
}

TEST_F(AnalysisLoopTest, APassAnalysesAtMostItsBoundAndTheNextOneTheRest) {
  for (int i = 0; i < 5; ++i) AddRun({Point{}});
  analysis::AnalysisLoopOptions options;
  options.max_runs_per_pass = 2;
  analysis::AnalysisLoop loop(analysis_store_.get(), options);
  ASSERT_OK_AND_ASSIGN(int first, loop.RunOnce());
  EXPECT_EQ(first, 2);
  EXPECT_EQ(Sql("SELECT count(*) FROM run WHERE analysis_state = 'PENDING'").at(0).at(0).as<int>(),
            3);
  ASSERT_OK_AND_ASSIGN(int second, loop.RunOnce());
  ASSERT_OK_AND_ASSIGN(int third, loop.RunOnce());
  ASSERT_OK_AND_ASSIGN(int fourth, loop.RunOnce());
  EXPECT_EQ(second + third, 3);
  EXPECT_EQ(fourth, 0);
}

// A server stopping under a backlog (SIGTERM while a night's runs wait for analysis) must not
// finish the whole pass first: Stop() ends it after the run in progress.
TEST_F(AnalysisLoopTest, StopEndsAPassAfterTheRunInProgress) {
  constexpr int kRuns = 12;
  for (int i = 0; i < kRuns; ++i) AddRun({Point{}});
  analysis::AnalysisLoopOptions options;
  options.max_runs_per_pass = kRuns;
  options.on_analysed = [](const analysis::RunAnalysisSummary&) {
    std::this_thread::sleep_for(milliseconds(400));  // a slow analysis
  };
  analysis::AnalysisLoop loop(analysis_store_.get(), options);
  loop.Start();
  ASSERT_TRUE(WaitFor([&] { return loop.analysed() >= 1; }, std::chrono::seconds(15)));
  const auto stop_start = std::chrono::steady_clock::now();
  loop.Stop();
  const auto stop_took = std::chrono::steady_clock::now() - stop_start;
  // The whole pass would take kRuns x 400 ms = 4.8 s; one run at most 400 ms plus its analysis.
  EXPECT_LT(stop_took, std::chrono::milliseconds(2000));
  EXPECT_LE(loop.analysed(), 3);
  EXPECT_EQ(Sql("SELECT count(*) FROM run WHERE analysis_state = 'DONE'").at(0).at(0).as<int64_t>(),
            loop.analysed());
  EXPECT_GE(Sql("SELECT count(*) FROM run WHERE analysis_state = 'PENDING'").at(0).at(0).as<int>(),
            kRuns - 3);
}

TEST_F(AnalysisLoopTest, NothingIsAnalysedBeforeTheSchemaIsReady) {
  const int64_t run = AddRun({Point{}});
  bool ready = false;
  analysis::AnalysisLoop loop(analysis_store_.get(), analysis::AnalysisLoopOptions(),
                              [&] { return ready; });
  ASSERT_OK_AND_ASSIGN(int none, loop.RunOnce());
  EXPECT_EQ(none, 0);
  ready = true;
  ASSERT_OK_AND_ASSIGN(int one, loop.RunOnce());
  EXPECT_EQ(one, 1);
  EXPECT_EQ(Sql("SELECT analysis_state FROM run WHERE id = $1", run).at(0).at(0).as<std::string>(),
            "DONE");
}

TEST_F(AnalysisLoopTest, EachCommittedAnalysisIsReportedWithTheFindingsItInserted) {
  for (int i = 0; i < 10; ++i) AddRun({Point{}});
  Point slower;
  slower.median *= 1.06;
  AddRun({slower});
  std::vector<analysis::InsertedFinding> reported;
  int analyses = 0;
  analysis::AnalysisLoopOptions options;
  options.on_analysed = [&](const analysis::RunAnalysisSummary& summary) {
    ++analyses;
    reported.insert(reported.end(), summary.inserted.begin(), summary.inserted.end());
  };
  analysis::AnalysisLoop loop(analysis_store_.get(), options);
  ASSERT_OK_AND_ASSIGN(int claimed, loop.RunOnce());
  EXPECT_EQ(claimed, 11);
  EXPECT_EQ(analyses, 11);
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_EQ(reported[0].kind, "REGRESSION");
  EXPECT_EQ(reported[0].state, "SUSPECTED");
  EXPECT_EQ(reported[0].family, Sql("SELECT family FROM regression").at(0).at(0).as<std::string>());
  EXPECT_EQ(reported[0].gpu_model,
            Sql("SELECT gpu_model FROM regression").at(0).at(0).as<std::string>());
  // Analysing again inserts nothing, so nothing more is reported.
  ASSERT_OK_AND_ASSIGN(int again, loop.RunOnce());
  EXPECT_EQ(again, 0);
  EXPECT_EQ(reported.size(), 1u);
}

TEST_F(AnalysisLoopTest, APassOpensTheSuspectsOfAbandonedConfirmations) {
  for (int i = 0; i < 10; ++i) AddRun({Point{}});
  Point slower;
  slower.median *= 1.06;
  const int64_t run = AddRun({slower});
  analysis::AnalysisLoop loop(analysis_store_.get(), analysis::AnalysisLoopOptions());
  ASSERT_OK_AND_ASSIGN(int claimed, loop.RunOnce());
  EXPECT_EQ(claimed, 11);
  ASSERT_EQ(
      Sql("SELECT state FROM regression WHERE run_id = $1", run).at(0).at(0).as<std::string>(),
      "SUSPECTED");
  Sql("UPDATE job SET state = 'FAILED', finished_at = now() WHERE confirms_run_id = $1", run);
  ASSERT_OK_AND_ASSIGN(int again, loop.RunOnce());
  EXPECT_EQ(again, 0);
  EXPECT_EQ(
      Sql("SELECT state FROM regression WHERE run_id = $1", run).at(0).at(0).as<std::string>(),
      "OPEN");
}

}  // namespace
}  // namespace warpwatch::server::testing
