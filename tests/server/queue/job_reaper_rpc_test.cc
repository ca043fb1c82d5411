// File: tests/server/queue/job_reaper_rpc_test.cc
// The server's job reaper through the real RPCs: expired leases are requeued and claimable by
// another worker, fail after max_attempts with the reason, and jobs past their timeout fail; a
// prune pass applies both retention ages.
#include <gtest/gtest.h>

#include <memory>
#include <pqxx/pqxx>
#include <thread>

#include "server/metrics/gauge_refresher.h"
#include "server/queue/job_reaper.h"
#include "server/store/migrations.h"
#include "server/store/pg_store.h"
#include "tests/server/service/worker_rpc_test_util.h"

namespace warpwatch::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class JobReaperRpcTest : public WorkerRpcTest {
 protected:
  // Leases of 1 s, reaper passes every 0.1 s.
  server::ServerConfig FastConfig() const {
    server::ServerConfig config = TestConfig();
    config.lease_seconds = 1;
    config.reaper_interval_seconds = 0.1;
    return config;
  }
};

TEST_F(JobReaperRpcTest, AnExpiredLeaseIsRequeuedAndAnotherWorkerClaimsTheJob) {
  StartServer(FastConfig());
  const std::string dead = Register("node-dead", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  const std::string alive = Register("node-alive", {MakeGpu("GPU-2", "NVIDIA H100")}).worker_id();
  const v1::Job job = Submit();
  v1::AcquireJobResponse first = Acquire(dead, "GPU-1", 0);
  ASSERT_TRUE(first.has_job());
  // The dead worker never heartbeats: within lease + a reaper pass the job is handed out again,
  // and the waiting long-poll of the other worker is woken by the requeue.
  v1::AcquireJobResponse second = Acquire(alive, "GPU-2", 8);
  ASSERT_TRUE(second.has_job());
  EXPECT_EQ(second.job().id(), job.id());
  EXPECT_EQ(second.job().attempts(), 2);
  EXPECT_EQ(second.job().lease_owner(), alive);
  EXPECT_NE(second.run_id(), first.run_id());
  // The first worker, back from the dead, learns it lost the job and may not finish it.
  v1::HeartbeatResponse beat;
  ASSERT_TRUE(Heartbeat(dead, {first.run_id()}, &beat).ok());
  EXPECT_EQ(std::vector<int64_t>(beat.lost_run_ids().begin(), beat.lost_run_ids().end()),
            std::vector<int64_t>{first.run_id()});
  v1::Job finished;
  EXPECT_EQ(
      Finish(dead, job.id(), first.run_id(), v1::JOB_OUTCOME_SUCCEEDED, &finished).error_code(),
      grpc::StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(Finish(alive, job.id(), second.run_id(), v1::JOB_OUTCOME_SUCCEEDED, &finished).ok());
  EXPECT_EQ(finished.state(), v1::JOB_STATE_SUCCEEDED);
}

// The event that shows the lease would have expired without the heartbeats: a job claimed just
// after ours, by a worker that never heartbeats, is reaped. Ours heartbeats every 100 ms against a
// 3 s lease (a heartbeat would have to stall for 3 s to lose it) until then.
TEST_F(JobReaperRpcTest, HeartbeatsKeepTheLeaseAlive) {
  server::ServerConfig config = FastConfig();
  config.lease_seconds = 3;
  StartServer(config);
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  const std::string silent = Register("node-2", {MakeGpu("GPU-2", "NVIDIA H100")}).worker_id();
  const v1::Job job = Submit();
  const v1::AcquireJobResponse lease = Acquire(worker, "GPU-1", 0);
  ASSERT_TRUE(lease.has_job());
  ASSERT_EQ(lease.job().id(), job.id());
  const v1::Job control = Submit();
  ASSERT_TRUE(Acquire(silent, "GPU-2", 0).has_job());
  int beats = 0;
  const bool control_reaped = WaitUntil(
      [&] {
        v1::HeartbeatResponse beat;
        const grpc::Status status = Heartbeat(worker, {lease.run_id()}, &beat);
        EXPECT_TRUE(status.ok()) << status.error_message();
        EXPECT_TRUE(beat.lost_run_ids().empty()) << "lost after " << beats << " heartbeats";
        ++beats;
        std::this_thread::sleep_for(milliseconds(100));
        return GetJob(control.id()).state() == v1::JOB_STATE_QUEUED || HasFailure();
      },
      seconds(60));
  ASSERT_FALSE(HasFailure());
  ASSERT_TRUE(control_reaped) << "the silent worker's job was not reaped within a minute";
  EXPECT_EQ(GetJob(job.id()).state(), v1::JOB_STATE_RUNNING);
  EXPECT_EQ(GetJob(job.id()).attempts(), 1);
}

TEST_F(JobReaperRpcTest, AfterMaxAttemptsTheJobFailsWithTheReason) {
  StartServer(FastConfig());
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  const v1::Job job = Submit([](v1::JobSpec& s) { s.set_max_attempts(2); });
  ASSERT_TRUE(Acquire(worker, "GPU-1", 0).has_job());
  v1::AcquireJobResponse again = Acquire(worker, "GPU-1", 8);  // after the first expiry
  ASSERT_TRUE(again.has_job());
  EXPECT_EQ(again.job().attempts(), 2);
  ASSERT_TRUE(
      WaitUntil([&] { return GetJob(job.id()).state() == v1::JOB_STATE_FAILED; }, seconds(8)));
  const v1::Job failed = GetJob(job.id());
  EXPECT_EQ(failed.error(), "lease expired 2 times; max_attempts 2");
  EXPECT_FALSE(Acquire(worker, "GPU-1", 0).has_job());
}

TEST_F(JobReaperRpcTest, AJobPastItsTimeoutFailsAndItsWorkerLosesIt) {
  server::ServerConfig config = TestConfig();
  config.lease_seconds = 60;
  config.reaper_interval_seconds = 0.1;
  StartServer(config);
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  const v1::Job job = Submit([](v1::JobSpec& s) { s.set_timeout_seconds(1); });
  const v1::AcquireJobResponse lease = Acquire(worker, "GPU-1", 0);
  ASSERT_TRUE(lease.has_job());
  ASSERT_TRUE(
      WaitUntil([&] { return GetJob(job.id()).state() == v1::JOB_STATE_FAILED; }, seconds(8)));
  EXPECT_EQ(GetJob(job.id()).error(), "timed out after 1 s");
  v1::HeartbeatResponse beat;
  ASSERT_TRUE(Heartbeat(worker, {lease.run_id()}, &beat).ok());
  EXPECT_EQ(std::vector<int64_t>(beat.lost_run_ids().begin(), beat.lost_run_ids().end()),
            std::vector<int64_t>{lease.run_id()});
}

TEST_F(JobReaperRpcTest, TheServerDefaultTimeoutAppliesToJobsWithoutOne) {
  server::ServerConfig config = TestConfig();
  config.lease_seconds = 60;
  config.reaper_interval_seconds = 0.1;
  config.default_job_timeout_seconds = 0.5;
  StartServer(config);
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  const v1::Job job = Submit();
  ASSERT_TRUE(Acquire(worker, "GPU-1", 0).has_job());
  ASSERT_TRUE(
      WaitUntil([&] { return GetJob(job.id()).state() == v1::JOB_STATE_FAILED; }, seconds(8)));
  EXPECT_EQ(GetJob(job.id()).error(), "timed out after 0.5 s");
}

// The reaper alone over a store and Database of its own (the schema applied by the first Probe).
class JobReaperTest : public PostgresTest {
 protected:
  void SetUp() override {
    PostgresTest::SetUp();
    if (HasFatalFailure()) return;
    server::PgStoreOptions options;
    options.url = url_;
    StatusOr<std::unique_ptr<server::Store>> opened = server::OpenPgStore(options);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    store_ = opened->get();
    const std::string url = url_;
    database_ = std::make_unique<server::Database>(
        std::move(*opened), [url] { return server::RunMigrations(url); });
  }

  // Registers worker "w" on node-1 with GPU-1 and queues one job (the schema must be applied).
  void RegisterAndEnqueue(std::string* worker, v1::Job* job) {
    v1::RegisterRequest registration;
    registration.set_hostname("node-1");
    *registration.add_devices() = MakeGpu("GPU-1", "NVIDIA H100");
    StatusOr<std::string> id =
        store_->RegisterWorker(registration, server::WorkerCaller{"w", false}, seconds(30));
    ASSERT_TRUE(id.ok()) << id.status().ToString();
    *worker = *id;
    StatusOr<v1::Job> queued = store_->EnqueueJob(RpcTest::ValidSpec(), 1, "t", "");
    ASSERT_TRUE(queued.ok()) << queued.status().ToString();
    *job = *queued;
  }

  // Applies the schema and stores one finished run of one measurement, 400 days old.
  void AddRunAged400Days() {
    ASSERT_TRUE(database_->Probe().ok());
    std::string worker;
    v1::Job job;
    ASSERT_NO_FATAL_FAILURE(RegisterAndEnqueue(&worker, &job));
    auto lease = store_->ClaimJob(worker, "GPU-1", seconds(30));
    ASSERT_TRUE(lease.ok() && lease->has_value());
    v1::Measurement m;
    m.mutable_case_()->set_family("reduce");
    m.mutable_case_()->set_variant("tree");
    m.mutable_case_()->set_canonical("reduce/tree?n=1024");
    m.set_status(v1::POINT_STATUS_OK);
    m.set_verified(true);
    m.mutable_stats()->set_median(1e-3);
    m.add_samples_seconds(1e-3);
    v1::RunEnvironment environment;
    *environment.mutable_device() = MakeGpu("GPU-1", "NVIDIA H100");
    const int64_t run = (*lease)->run_id;
    ASSERT_TRUE(store_->UploadMeasurements(run, worker, environment, {m}).ok());
    ASSERT_TRUE(store_->FinishJob(worker, job.id(), run, v1::JOB_OUTCOME_SUCCEEDED, "").ok());
    {
      pqxx::connection conn(url_);
      pqxx::work tx(conn);
      tx.exec_params(
          "UPDATE run SET started_at = now() - interval '400 days',"
          " finished_at = now() - interval '400 days' WHERE id = $1",
          run);
      tx.commit();
    }
  }

  server::Store* store_ = nullptr;  // owned by database_
  std::unique_ptr<server::Database> database_;
};

TEST_F(JobReaperTest, PassesBeforeTheSchemaExistsDoNothingAndLaterOnesReap) {
  server::queue::JobReaper reaper(database_.get(), server::queue::JobReaperOptions{});
  EXPECT_TRUE(reaper.RunOnce().ok());  // schema not applied: nothing to do, no error
  EXPECT_EQ(reaper.errors(), 0);
  ASSERT_TRUE(database_->Probe().ok());  // applies the migrations
  // An expired lease, for the next pass to reap.
  std::string worker;
  v1::Job job;
  ASSERT_NO_FATAL_FAILURE(RegisterAndEnqueue(&worker, &job));
  auto lease = store_->ClaimJob(worker, "GPU-1", milliseconds(1));
  ASSERT_TRUE(lease.ok() && lease->has_value());
  std::this_thread::sleep_for(milliseconds(20));
  ASSERT_TRUE(reaper.RunOnce().ok());
  EXPECT_EQ(reaper.requeued(), 1);
  EXPECT_EQ(reaper.timed_out(), 0);
  StatusOr<v1::Job> after = store_->GetJob(job.id());
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->state(), v1::JOB_STATE_QUEUED);
}

TEST_F(JobReaperTest, APrunePassDropsOldSamplesAndFoldsOldSummaries) {
  ASSERT_NO_FATAL_FAILURE(AddRunAged400Days());
  server::queue::JobReaper reaper(database_.get(), server::queue::JobReaperOptions{});  // 90 / 365 days
  ASSERT_TRUE(reaper.RunOnce().ok());
  EXPECT_EQ(reaper.samples_dropped(), 1);
  EXPECT_EQ(reaper.summaries_folded(), 1);
  pqxx::connection conn(url_);
  pqxx::work tx(conn);
  EXPECT_EQ(tx.exec("SELECT count(*) FROM measurement").at(0).at(0).as<int>(), 0);
  pqxx::result rollup = tx.exec("SELECT cardinality(run_medians) FROM measurement_rollup");
  ASSERT_EQ(rollup.size(), 1u);
  EXPECT_EQ(rollup[0][0].as<int>(), 1);
}

// A server stopping during a long prune exits within one batch: no batch starts after Stop().
TEST_F(JobReaperTest, NoPruneBatchStartsAfterStop) {
  ASSERT_NO_FATAL_FAILURE(AddRunAged400Days());
  server::queue::JobReaper stopped(database_.get(), server::queue::JobReaperOptions{});
  stopped.Stop();
  ASSERT_TRUE(stopped.RunOnce().ok());
  EXPECT_EQ(stopped.samples_dropped(), 0);
  EXPECT_EQ(stopped.summaries_folded(), 0);
  server::queue::JobReaper running(database_.get(), server::queue::JobReaperOptions{});
  ASSERT_TRUE(running.RunOnce().ok());
  EXPECT_EQ(running.samples_dropped(), 1);
}

TEST_F(JobReaperTest, ASlowMetricsRefreshDoesNotDelayReaping) {
  ASSERT_TRUE(database_->Probe().ok());
  std::string worker;
  v1::Job job;
  ASSERT_NO_FATAL_FAILURE(RegisterAndEnqueue(&worker, &job));
  // Gauges whose database reads take 3 s (a big fleet, a loaded database).
  server::metrics::GaugeRefresher gauges(database_.get(), milliseconds(50), [](server::Store& s) {
    (void)s.CountJobsByState();
    std::this_thread::sleep_for(seconds(3));
  });
  server::queue::JobReaperOptions reaper_options;
  reaper_options.interval = milliseconds(50);
  server::queue::JobReaper reaper(database_.get(), reaper_options);
  gauges.Start();
  reaper.Start();
  // A lease that expires after both have started their first pass.
  auto lease = store_->ClaimJob(worker, "GPU-1", milliseconds(300));
  ASSERT_TRUE(lease.ok() && lease->has_value());
  const auto claimed = std::chrono::steady_clock::now();
  EXPECT_TRUE(WaitUntil([&] { return reaper.requeued() == 1; }, milliseconds(1500)))
      << "reaped only after "
      << std::chrono::duration<double>(std::chrono::steady_clock::now() - claimed).count() << " s";
  reaper.Stop();
  gauges.Stop();
  EXPECT_GE(gauges.passes(), 1);
}

}  // namespace
}  // namespace warpwatch::testing
