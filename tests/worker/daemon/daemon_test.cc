// File: tests/worker/daemon/daemon_test.cc
// The daemon against an in-process fake WorkerService and a scripted executor: registration,
// jobs to each outcome, uploads, cancels, lost leases, shutdown hand-back, server outages.
#include "worker/daemon/daemon.h"

#include <grpcpp/create_channel.h>
#include <gtest/gtest.h>

#include <memory>
#include <thread>

#include "tests/worker/daemon/fake_worker_service.h"
#include "tests/worker/daemon/scripted_executor.h"
#include "worker/client/worker_client.h"

namespace warpwatch::worker {
namespace {

using testing::FakeServer;
using testing::FakeWorkerService;
using testing::OkSpec;
using testing::ScriptedExecutor;
using testing::WaitUntil;
using State = FakeWorkerService::State;

class DaemonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<FakeServer>(&service_);
    ClientOptions client_options;
    client_options.server = server_->address();
    client_options.call_timeout_seconds = 2;
    client_options.acquire_extra_seconds = 2;
    client_options.reconnect_initial_seconds = 0.02;
    client_options.reconnect_max_seconds = 0.1;
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 20);
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 100);
    client_ = std::make_unique<WorkerClient>(
        grpc::CreateCustomChannel(server_->address(), grpc::InsecureChannelCredentials(), args),
        client_options);
    options_.acquire_wait_seconds = 0.2;
    options_.grace_seconds = 5;
    options_.hand_back_seconds = 5;
    options_.progress_interval_seconds = 0.05;
    options_.backoff.initial_seconds = 0.02;
    options_.backoff.max_seconds = 0.1;
    options_.uploader.backoff = options_.backoff;
    device_.set_uuid("GPU-test-0");
    device_.set_name("Fake GPU");
    device_.set_index(3);
  }

  void TearDown() override {
    if (daemon_) {
      daemon_->RequestShutdown();
      if (thread_.joinable()) thread_.join();
    }
  }

  void StartDaemon() {
    WorkerIdentity identity;
    identity.hostname = "host-a";
    identity.labels = {{"rack", "r1"}};
    identity.version = "test";
    identity.families = {"testing.fault"};
    daemon_ = std::make_unique<Daemon>(client_.get(), identity,
                                       std::vector<GpuSlot>{{device_, &executor_}}, options_,
                                       nullptr);
    thread_ = std::thread([this] { run_status_ = daemon_->Run(); });
  }

  // Requests shutdown and waits for Run to return.
  Status StopDaemon() {
    daemon_->RequestShutdown();
    thread_.join();
    return run_status_;
  }

  bool Finished(size_t n = 1) {
    return service_.Get().finishes.size() >= n;
  }

  FakeWorkerService service_;
  std::unique_ptr<FakeServer> server_;
  std::unique_ptr<WorkerClient> client_;
  ScriptedExecutor executor_;
  DaemonOptions options_;
  v1::Device device_;
  std::unique_ptr<Daemon> daemon_;
  std::thread thread_;
  Status run_status_;
};

TEST_F(DaemonTest, RegistersHostGpusLabelsAndFamilies) {
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] { return !service_.Get().registers.empty(); }));
  v1::RegisterRequest r = service_.Get().registers[0];
  EXPECT_EQ(r.hostname(), "host-a");
  EXPECT_EQ(r.labels().at("rack"), "r1");
  ASSERT_EQ(r.devices_size(), 1);
  EXPECT_EQ(r.devices(0).uuid(), "GPU-test-0");
  ASSERT_EQ(r.families_size(), 1);
  EXPECT_EQ(r.families(0), "testing.fault");
  EXPECT_TRUE(r.worker_id().empty());
  ASSERT_TRUE(StopDaemon().ok());
}

TEST_F(DaemonTest, RunsAJobToSucceededWithEveryPointUploadedOnce) {
  service_.Enqueue(7, OkSpec(5));
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] { return Finished(); }));
  State s = service_.Get();
  EXPECT_EQ(s.finishes[0].job_id(), 7);
  EXPECT_EQ(s.finishes[0].outcome(), v1::JOB_OUTCOME_SUCCEEDED) << s.finishes[0].error();
  const int64_t run = s.finishes[0].run_id();
  ASSERT_EQ(s.stored[run].size(), 5u);
  for (const auto& [key, times] : s.stored[run]) EXPECT_EQ(times, 1) << key;
  EXPECT_EQ(s.environments[run].labels().at("git_sha"), "abc123");
  EXPECT_EQ(executor_.last_device_index, 3);
  ASSERT_FALSE(s.progress.empty());
  EXPECT_EQ(s.progress.back().points_total(), 5);
  ASSERT_TRUE(StopDaemon().ok());
}

TEST_F(DaemonTest, HeartbeatsAndProgressNameTheRunningRun) {
  executor_.point_time = std::chrono::milliseconds(100);
  service_.Enqueue(8, OkSpec(5));
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] {
    for (const auto& h : service_.Get().heartbeats) {
      if (h.running_run_ids_size() == 1 && h.running_run_ids(0) == 100) return true;
    }
    return false;
  }));
  ASSERT_TRUE(WaitUntil([&] { return !service_.Get().progress.empty(); }));
  for (const auto& p : service_.Get().progress) {
    EXPECT_EQ(p.job_id(), 8);
    EXPECT_EQ(p.run_id(), 100);
  }
  ASSERT_TRUE(StopDaemon().ok());
}

TEST_F(DaemonTest, ExecuteFailureFinishesFailedWithTheReason) {
  executor_.fail_with = UnavailableError("no CUDA device: driver missing");
  service_.Enqueue(9, OkSpec(2));
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] { return Finished(); }));
  v1::FinishJobRequest f = service_.Get().finishes[0];
  EXPECT_EQ(f.outcome(), v1::JOB_OUTCOME_FAILED);
  EXPECT_NE(f.error().find("no CUDA device"), std::string::npos) << f.error();
  ASSERT_TRUE(StopDaemon().ok());
}

TEST_F(DaemonTest, SkippedPointsOfMissingFamiliesAreUploadedAsSkipped) {
  executor_.missing_families = {"testing.fault"};
  service_.Enqueue(10, OkSpec(3));
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] { return Finished(); }));
  State s = service_.Get();
  EXPECT_EQ(s.finishes[0].outcome(), v1::JOB_OUTCOME_SUCCEEDED);
  int skipped = 0;
  for (const auto& upload : s.uploads) {
    for (const auto& m : upload.measurements()) {
      EXPECT_EQ(m.status(), v1::POINT_STATUS_SKIPPED);
      EXPECT_NE(m.error().find("not implemented"), std::string::npos);
      ++skipped;
    }
  }
  EXPECT_EQ(skipped, 3);
  ASSERT_TRUE(StopDaemon().ok());
}

TEST_F(DaemonTest, CancelFromHeartbeatStopsTheJobAndKeepsUploadedPoints) {
  executor_.point_time = std::chrono::milliseconds(100);
  service_.Enqueue(11, OkSpec(50));
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] {
    State s = service_.Get();
    return !s.stored.empty() && s.stored.begin()->second.size() >= 2;
  }));
  service_.Set([](State& s) { s.cancel.insert(100); });  // the job's run
  ASSERT_TRUE(WaitUntil([&] { return Finished(); }));
  State s = service_.Get();
  EXPECT_EQ(s.finishes[0].outcome(), v1::JOB_OUTCOME_CANCELLED);
  EXPECT_TRUE(executor_.saw_cancel);
  size_t stored = s.stored[s.finishes[0].run_id()].size();
  EXPECT_GE(stored, 2u);
  EXPECT_LT(stored, 50u);
  EXPECT_EQ(static_cast<int>(stored), executor_.points_run.load());
  ASSERT_TRUE(StopDaemon().ok());
}

TEST_F(DaemonTest, LostLeaseStopsTheJobWithoutFinishingIt) {
  executor_.point_time = std::chrono::milliseconds(100);
  service_.Enqueue(12, OkSpec(50));
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] { return executor_.points_run >= 1; }));
  service_.Set([](State& s) { s.lost.insert(100); });  // the job's run
  ASSERT_TRUE(WaitUntil([&] { return executor_.saw_cancel.load(); }));
  // Give a wrongly sent FinishJob time to arrive: none may.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_TRUE(service_.Get().finishes.empty());
  EXPECT_LT(executor_.points_run.load(), 50);
  ASSERT_TRUE(StopDaemon().ok());
}

TEST_F(DaemonTest, AnUploadRefusedForAFinishedRunStopsTheJobAsLostWithoutFinishingIt) {
  // Issue 14, item 2: the server closed the run (its lease was lost) and refuses its uploads.
  executor_.point_time = std::chrono::milliseconds(100);
  service_.Enqueue(13, OkSpec(50));
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] { return executor_.points_run >= 1; }));
  service_.Set([](State& s) { s.upload_code = grpc::StatusCode::FAILED_PRECONDITION; });
  ASSERT_TRUE(WaitUntil([&] { return executor_.saw_cancel.load(); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_TRUE(service_.Get().finishes.empty());
  EXPECT_LT(executor_.points_run.load(), 50);
  ASSERT_TRUE(StopDaemon().ok());
}

TEST_F(DaemonTest, ShutdownHandsBackARunningJobAfterUploadingFinishedPoints) {
  options_.grace_seconds = 0.1;
  executor_.point_time = std::chrono::milliseconds(100);
  service_.Enqueue(13, OkSpec(100));
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] { return executor_.points_run >= 2; }));
  ASSERT_TRUE(StopDaemon().ok());
  State s = service_.Get();
  ASSERT_EQ(s.finishes.size(), 1u);
  EXPECT_EQ(s.finishes[0].outcome(), v1::JOB_OUTCOME_RELEASED);
  EXPECT_EQ(static_cast<int>(s.stored[s.finishes[0].run_id()].size()),
            executor_.points_run.load());
  EXPECT_LT(executor_.points_run.load(), 100);
}

TEST_F(DaemonTest, ShutdownLetsAJobFinishWithinTheGracePeriod) {
  options_.grace_seconds = 10;
  executor_.point_time = std::chrono::milliseconds(50);
  service_.Enqueue(14, OkSpec(6));
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] { return executor_.points_run >= 1; }));
  ASSERT_TRUE(StopDaemon().ok());
  State s = service_.Get();
  ASSERT_EQ(s.finishes.size(), 1u);
  EXPECT_EQ(s.finishes[0].outcome(), v1::JOB_OUTCOME_SUCCEEDED);
  EXPECT_EQ(s.stored[s.finishes[0].run_id()].size(), 6u);
}

TEST_F(DaemonTest, ShutdownTakesNoNewJobs) {
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] { return !service_.Get().registers.empty(); }));
  ASSERT_TRUE(StopDaemon().ok());
  service_.Enqueue(15, OkSpec(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(service_.Get().queue.size(), 1u);
  EXPECT_EQ(executor_.executions.load(), 0);
}

TEST_F(DaemonTest, RegistersOnceTheServerAppears) {
  service_.Set([](State& s) { s.register_failures = 3; });
  service_.Enqueue(16, OkSpec(2));
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] { return Finished(); }));
  EXPECT_EQ(service_.Get().registers.size(), 1u);
  ASSERT_TRUE(StopDaemon().ok());
}

TEST_F(DaemonTest, ReRegistersWithTheSameIdWhenTheServerForgetsTheWorker) {
  StartDaemon();
  // The fake service records the Register before the daemon has read its answer: wait for the id.
  ASSERT_TRUE(WaitUntil([&] { return !daemon_->worker_id().empty(); }));
  const std::string id = daemon_->worker_id();
  service_.Set([](State& s) { s.heartbeat_not_found = 1; });
  ASSERT_TRUE(WaitUntil([&] { return service_.Get().registers.size() >= 2; }));
  EXPECT_EQ(service_.Get().registers[1].worker_id(), id);
  ASSERT_TRUE(StopDaemon().ok());
}

TEST_F(DaemonTest, ServerGoneMidJobLosesNothing) {
  executor_.point_time = std::chrono::milliseconds(50);
  service_.Enqueue(17, OkSpec(20));
  StartDaemon();
  ASSERT_TRUE(WaitUntil([&] { return executor_.points_run >= 3; }));
  server_->Stop();
  ASSERT_TRUE(WaitUntil([&] { return executor_.points_run >= 20; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(service_.Get().finishes.empty());
  server_->Start();
  ASSERT_TRUE(WaitUntil([&] { return Finished(); }));
  State s = service_.Get();
  EXPECT_EQ(s.finishes[0].outcome(), v1::JOB_OUTCOME_SUCCEEDED);
  ASSERT_EQ(s.stored[s.finishes[0].run_id()].size(), 20u);
  for (const auto& [key, times] : s.stored[s.finishes[0].run_id()]) EXPECT_EQ(times, 1) << key;
  ASSERT_TRUE(StopDaemon().ok());
}

}  // namespace
}  // namespace warpwatch::worker
