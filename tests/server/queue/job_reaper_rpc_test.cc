// File: tests/server/queue/job_reaper_rpc_test.cc
// The server's job reaper through the real RPCs: expired leases are requeued and claimable by
// another worker, fail after max_attempts with the reason, and jobs past their timeout fail.
#include <gtest/gtest.h>

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
  ASSERT_TRUE(Heartbeat(dead, {job.id()}, &beat).ok());
  EXPECT_EQ(std::vector<int64_t>(beat.lost_job_ids().begin(), beat.lost_job_ids().end()),
            std::vector<int64_t>{job.id()});
  v1::Job finished;
  EXPECT_EQ(Finish(dead, job.id(), v1::JOB_OUTCOME_SUCCEEDED, &finished).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(Finish(alive, job.id(), v1::JOB_OUTCOME_SUCCEEDED, &finished).ok());
  EXPECT_EQ(finished.state(), v1::JOB_STATE_SUCCEEDED);
}

TEST_F(JobReaperRpcTest, HeartbeatsKeepTheLeaseAlive) {
  StartServer(FastConfig());
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  const v1::Job job = Submit();
  ASSERT_TRUE(Acquire(worker, "GPU-1", 0).has_job());
  for (int i = 0; i < 8; ++i) {  // 2 s, twice the lease
    std::this_thread::sleep_for(milliseconds(250));
    v1::HeartbeatResponse beat;
    ASSERT_TRUE(Heartbeat(worker, {job.id()}, &beat).ok());
    ASSERT_TRUE(beat.lost_job_ids().empty()) << "lost after " << (i + 1) * 250 << " ms";
  }
  EXPECT_EQ(GetJob(job.id()).state(), v1::JOB_STATE_RUNNING);
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
  ASSERT_TRUE(Acquire(worker, "GPU-1", 0).has_job());
  ASSERT_TRUE(
      WaitUntil([&] { return GetJob(job.id()).state() == v1::JOB_STATE_FAILED; }, seconds(8)));
  EXPECT_EQ(GetJob(job.id()).error(), "timed out after 1 s");
  v1::HeartbeatResponse beat;
  ASSERT_TRUE(Heartbeat(worker, {job.id()}, &beat).ok());
  EXPECT_EQ(std::vector<int64_t>(beat.lost_job_ids().begin(), beat.lost_job_ids().end()),
            std::vector<int64_t>{job.id()});
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

// The reaper alone, on a database that is not reachable yet and then is.
class JobReaperTest : public PostgresTest {};

TEST_F(JobReaperTest, PassesBeforeTheSchemaExistsDoNothingAndLaterOnesReap) {
  server::PgStoreOptions options;
  options.url = url_;
  StatusOr<std::unique_ptr<server::Store>> store = server::OpenPgStore(options);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  const std::string url = url_;
  server::Database database(std::move(*store), [url] { return server::RunMigrations(url); });
  server::queue::JobReaperOptions reaper_options;
  int passes_with_store = 0;
  reaper_options.after_pass = [&](server::Store&) { ++passes_with_store; };
  server::queue::JobReaper reaper(&database, reaper_options);
  EXPECT_TRUE(reaper.RunOnce().ok());  // schema not applied: nothing to do, no error
  EXPECT_EQ(passes_with_store, 0);
  ASSERT_TRUE(database.Probe().ok());  // applies the migrations
  ASSERT_TRUE(reaper.RunOnce().ok());
  EXPECT_EQ(passes_with_store, 1);
  EXPECT_EQ(reaper.requeued(), 0);
  EXPECT_EQ(reaper.timed_out(), 0);
}

}  // namespace
}  // namespace warpwatch::testing
