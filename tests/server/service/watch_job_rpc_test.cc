// File: tests/server/service/watch_job_rpc_test.cc
// WatchJob streams every state change and ends with the job, with the client, or with the server.
// State changes are driven through a second Store on the same database, as a worker would.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "server/store/pg_store.h"
#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

using namespace std::chrono_literals;

class WatchJobRpcTest : public RpcTest {
 protected:
  void SetUp() override {
    RpcTest::SetUp();
    if (HasFatalFailure()) return;
    StartServer();
    stub_ = JobStub();
  }

  v1::Job Submit() {
    v1::SubmitJobRequest request;
    *request.mutable_spec() = ValidSpec();
    v1::Job job;
    EXPECT_TRUE(stub_->SubmitJob(Context().get(), request, &job).ok());
    return job;
  }

  std::unique_ptr<server::Store> OpenStore() {
    server::PgStoreOptions options;
    options.url = url_;
    options.pool_size = 2;
    auto store = server::OpenPgStore(options);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::move(*store) : nullptr;
  }

  std::unique_ptr<v1::JobService::Stub> stub_;
};

// Reads a WatchJob stream on its own thread.
struct Watcher {
  std::unique_ptr<grpc::ClientContext> context;
  std::vector<v1::Job> events;   // read after Join(), or through Events() while streaming
  std::atomic<int> received{0};  // events so far, readable while streaming
  grpc::Status status;
  std::thread thread;

  Watcher(v1::JobService::Stub* stub, int64_t job_id)
      : context(std::make_unique<grpc::ClientContext>()) {
    thread = std::thread([this, stub, job_id] {
      v1::GetJobRequest request;
      request.set_job_id(job_id);
      auto reader = stub->WatchJob(context.get(), request);
      v1::JobEvent event;
      while (reader->Read(&event)) {
        {
          std::lock_guard<std::mutex> lock(mu);
          events.push_back(event.job());
        }
        ++received;
      }
      status = reader->Finish();
    });
  }
  // Waits (generously: the server polls every 50 ms, but a loaded 2-core machine running
  // sanitized builds can stall it for seconds) until the latest event streamed satisfies `is`.
  bool WaitForLatest(const std::function<bool(const v1::Job&)>& is) {
    return WaitUntil(
        [&] {
          std::lock_guard<std::mutex> lock(mu);
          return !events.empty() && is(events.back());
        },
        30s);
  }
  void Join() {
    if (thread.joinable()) thread.join();
  }
  // Ends the stream first, so a test that failed before the job ended does not hang here.
  ~Watcher() {
    context->TryCancel();
    Join();
  }

  std::mutex mu;  // guards events while the thread runs
};

// Each change is made only after the watch has streamed the one before, so every state is on the
// stream whatever the machine's load: the server polls the job every 50 ms and sends only what
// differs from what it sent last, so two changes within one poll would be one event.
TEST_F(WatchJobRpcTest, StreamsEachStateChangeAndEndsWhenTheJobSucceeds) {
  v1::Job job = Submit();
  Watcher watcher(stub_.get(), job.id());
  ASSERT_TRUE(
      watcher.WaitForLatest([](const v1::Job& j) { return j.state() == v1::JOB_STATE_QUEUED; }));

  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  v1::RegisterRequest registration;
  registration.set_hostname("node1");
  v1::Device* device = registration.add_devices();
  device->set_uuid("GPU-watch-test");
  device->set_name("NVIDIA H100 80GB HBM3");
  auto worker = store->RegisterWorker(registration, server::WorkerCaller{"watcher", false}, 60s);
  ASSERT_TRUE(worker.ok()) << worker.status().ToString();
  auto lease = store->ClaimJob(*worker, "GPU-watch-test", 60s);
  ASSERT_TRUE(lease.ok() && lease->has_value()) << lease.status().ToString();
  ASSERT_TRUE(
      watcher.WaitForLatest([](const v1::Job& j) { return j.state() == v1::JOB_STATE_RUNNING; }));
  ASSERT_TRUE(
      store->UpdateProgress(*worker, job.id(), (*lease)->run_id, 1, 1, "reduce/warp_shuffle").ok());
  ASSERT_TRUE(watcher.WaitForLatest([](const v1::Job& j) { return j.points_done() == 1; }));
  ASSERT_TRUE(
      store->FinishJob(*worker, job.id(), (*lease)->run_id, v1::JOB_OUTCOME_SUCCEEDED, "").ok());

  watcher.Join();
  EXPECT_TRUE(watcher.status.ok()) << watcher.status.error_message();
  ASSERT_GE(watcher.events.size(), 4u);
  EXPECT_EQ(watcher.events.front().state(), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(watcher.events[1].state(), v1::JOB_STATE_RUNNING);
  EXPECT_EQ(watcher.events[1].points_done(), 0);
  bool saw_progress = false;
  for (const v1::Job& e : watcher.events)
    saw_progress |= e.points_done() == 1 && e.state() == v1::JOB_STATE_RUNNING;
  EXPECT_TRUE(saw_progress);
  EXPECT_EQ(watcher.events.back().state(), v1::JOB_STATE_SUCCEEDED);
}

TEST_F(WatchJobRpcTest, EndsWhenTheJobIsCancelled) {
  v1::Job job = Submit();
  Watcher watcher(stub_.get(), job.id());
  // Cancelled only once the watch has seen it queued: before that, it would see only CANCELLED.
  ASSERT_TRUE(
      watcher.WaitForLatest([](const v1::Job& j) { return j.state() == v1::JOB_STATE_QUEUED; }));
  v1::CancelJobRequest cancel;
  cancel.set_job_id(job.id());
  v1::Job cancelled;
  ASSERT_TRUE(stub_->CancelJob(Context().get(), cancel, &cancelled).ok());
  watcher.Join();
  EXPECT_TRUE(watcher.status.ok()) << watcher.status.error_message();
  ASSERT_EQ(watcher.events.size(), 2u);
  EXPECT_EQ(watcher.events[0].state(), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(watcher.events[1].state(), v1::JOB_STATE_CANCELLED);
}

TEST_F(WatchJobRpcTest, AFinishedJobIsSentOnceAndTheStreamEnds) {
  v1::Job job = Submit();
  v1::CancelJobRequest cancel;
  cancel.set_job_id(job.id());
  v1::Job cancelled;
  ASSERT_TRUE(stub_->CancelJob(Context().get(), cancel, &cancelled).ok());
  Watcher watcher(stub_.get(), job.id());
  watcher.Join();
  EXPECT_TRUE(watcher.status.ok());
  ASSERT_EQ(watcher.events.size(), 1u);
  EXPECT_EQ(watcher.events[0].state(), v1::JOB_STATE_CANCELLED);
}

TEST_F(WatchJobRpcTest, AnUnknownJobIsNotFound) {
  Watcher watcher(stub_.get(), 8888888);
  watcher.Join();
  EXPECT_EQ(watcher.status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(watcher.events.empty());
}

TEST_F(WatchJobRpcTest, ServerShutdownEndsOpenWatchesPromptly) {
  v1::Job job = Submit();
  Watcher watcher(stub_.get(), job.id());
  ASSERT_TRUE(WaitUntil([&] { return watcher.received.load() > 0; }, 5s));
  const auto start = std::chrono::steady_clock::now();
  runtime_->Shutdown(10s);
  const auto took = std::chrono::steady_clock::now() - start;
  watcher.Join();
  EXPECT_LT(took, 2s) << "shutdown waited for the watch instead of ending it";
  EXPECT_EQ(watcher.status.error_code(), grpc::StatusCode::UNAVAILABLE)
      << watcher.status.error_message();
}

TEST_F(WatchJobRpcTest, AClientThatGoesAwayEndsItsWatch) {
  v1::Job job = Submit();
  Watcher watcher(stub_.get(), job.id());
  ASSERT_TRUE(WaitUntil([&] { return watcher.received.load() > 0; }, 5s));
  watcher.context->TryCancel();
  watcher.Join();
  EXPECT_EQ(watcher.status.error_code(), grpc::StatusCode::CANCELLED);
  // The server is not stuck on the abandoned stream: shutting down is immediate.
  const auto start = std::chrono::steady_clock::now();
  runtime_->Shutdown(10s);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

}  // namespace
}  // namespace warpwatch::testing
