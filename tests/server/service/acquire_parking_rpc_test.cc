// File: tests/server/service/acquire_parking_rpc_test.cc
// AcquireJob long-polls parked without a thread each (server/service/detail/acquire_parking.h),
// over real gRPC channels to an in-process server on a real PostgreSQL: many open polls cost no
// threads, a client that goes away is answered, and a job goes to a poll that is still there.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/metrics/metrics_scrape.h"
#include "tests/server/service/worker_service_rpc_fixture.h"

namespace warpwatch::testing {
namespace {

using Clock = std::chrono::steady_clock;

int ThreadsOfThisProcess() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

// Polls opened through gRPC's callback client API, so that the test itself needs no thread per
// poll either.
class OpenPolls {
 public:
  struct Poll {
    grpc::ClientContext context;
    v1::AcquireJobRequest request;
    v1::AcquireJobResponse response;
    grpc::Status status;
    bool done = false;
  };

  void Open(v1::WorkerService::Stub& stub, const std::string& token, const std::string& worker,
            const std::string& gpu, double wait_seconds) {
    auto poll = std::make_unique<Poll>();
    if (!token.empty()) poll->context.AddMetadata("authorization", "Bearer " + token);
    poll->request.set_worker_id(worker);
    poll->request.set_device_uuid(gpu);
    poll->request.set_wait_seconds(wait_seconds);
    Poll* p = poll.get();
    {
      std::lock_guard<std::mutex> lock(mu_);
      polls_.push_back(std::move(poll));
    }
    stub.async()->AcquireJob(&p->context, &p->request, &p->response, [this, p](grpc::Status s) {
      std::lock_guard<std::mutex> lock(mu_);
      p->status = std::move(s);
      p->done = true;
      changed_.notify_all();
    });
  }
  // Waits until `n` polls have been answered, at most `timeout`; false on timeout.
  bool WaitAnswered(size_t n, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    return changed_.wait_for(lock, timeout, [&] { return Answered() >= n; });
  }
  void CancelAll() {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& p : polls_) p->context.TryCancel();
  }
  size_t answered() {
    std::lock_guard<std::mutex> lock(mu_);
    return Answered();
  }
  // The answered polls that leased a job.
  std::vector<int64_t> LeasedJobs() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<int64_t> out;
    for (auto& p : polls_) {
      if (p->done && p->status.ok() && p->response.has_job()) out.push_back(p->response.job().id());
    }
    return out;
  }
  Poll& at(size_t i) {
    std::lock_guard<std::mutex> lock(mu_);
    return *polls_[i];
  }
  ~OpenPolls() {
    CancelAll();
    WaitAnswered(polls_.size(), std::chrono::seconds(30));
  }

 private:
  size_t Answered() const {
    size_t n = 0;
    for (const auto& p : polls_) n += p->done ? 1 : 0;
    return n;
  }
  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<std::unique_ptr<Poll>> polls_;  // guarded by mu_
};

TEST_F(WorkerServiceRpcTest, TwoHundredOpenPollsHoldNoThreadEachAndOneJobGoesToOneOfThem) {
  server::ServerConfig config = TestConfig();
  config.max_parked_polls_per_principal = 256;  // one worker token holds all 200
  StartServer(config);
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  auto stub = WorkerStub();
  const int before = ThreadsOfThisProcess();
  OpenPolls polls;
  for (int i = 0; i < 200; ++i) polls.Open(*stub, token_, worker, "GPU-1", 30);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // every poll parked by now
  const int during = ThreadsOfThisProcess();
  EXPECT_EQ(polls.answered(), 0u);
  // A thread per waiting call (the synchronous handler) would add 200.
  EXPECT_LT(during - before, 40) << before << " threads before, " << during << " with 200 polls";

  const v1::Job job = Submit();
  ASSERT_TRUE(polls.WaitAnswered(1, std::chrono::seconds(10)));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(polls.LeasedJobs(), std::vector<int64_t>{job.id()});
  EXPECT_EQ(GetJob(job.id()).state(), v1::JOB_STATE_RUNNING);
}

TEST_F(WorkerServiceRpcTest, APollWhoseClientWentAwayIsAnsweredAndTheJobGoesToALivePoll) {
  StartServer();
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  auto stub = WorkerStub();
  OpenPolls gone;
  gone.Open(*stub, token_, worker, "GPU-1", 30);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const Clock::time_point cancelled = Clock::now();
  gone.CancelAll();
  ASSERT_TRUE(gone.WaitAnswered(1, std::chrono::seconds(5)));
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - cancelled).count(), 2.0);
  EXPECT_EQ(gone.at(0).status.error_code(), grpc::StatusCode::CANCELLED);

  OpenPolls live;
  live.Open(*stub, token_, worker, "GPU-1", 30);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const v1::Job job = Submit();
  ASSERT_TRUE(live.WaitAnswered(1, std::chrono::seconds(10)));
  EXPECT_EQ(live.LeasedJobs(), std::vector<int64_t>{job.id()});
  const v1::Job stored = GetJob(job.id());
  EXPECT_EQ(stored.state(), v1::JOB_STATE_RUNNING);
  EXPECT_EQ(stored.lease_owner(), worker);
}

// warpwatch_acquire_claims_total{trigger="notification", outcome=...} read from /metrics (-1 when
// the series is missing, so a missing metric cannot pass as zero claims).
double NotifiedClaims(int port, const std::string& outcome) {
  return SampleValue(FetchMetrics(port), "warpwatch_acquire_claims_total",
                     {"trigger=\"notification\"", "outcome=\"" + outcome + "\""});
}

class TargetedWakeTest : public WorkerServiceRpcTest {
 protected:
  // 40 GPUs of one worker, one parked poll each; returns once every poll is parked (its first
  // claim on arrival done).
  void ParkOnFortyGpus(OpenPolls& polls) {
    server::ServerConfig config = TestConfig();
    config.metrics_listen = "127.0.0.1:0";
    StartServer(config);
    ASSERT_EQ(runtime_->metrics_ports().size(), 1u);
    std::vector<v1::Device> gpus;
    for (int i = 0; i < 40; ++i)
      gpus.push_back(MakeGpu("GPU-" + std::to_string(i), "NVIDIA H100", i));
    worker_ = Register("node-1", gpus).worker_id();
    stub_ = WorkerStub();
    for (int i = 0; i < 40; ++i)
      polls.Open(*stub_, token_, worker_, "GPU-" + std::to_string(i), 30);
    // Parked once each arrival claim ran (40 empty arrival claims).
    const Clock::time_point end = Clock::now() + std::chrono::seconds(30);
    while (
        Clock::now() < end &&
        !HasLineWith(FetchMetrics(port()), {"warpwatch_acquire_claims_total", "trigger=\"arrival\"",
                                            "outcome=\"empty\"", "} 40"})) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_EQ(NotifiedClaims(port(), "empty"), 0);
  }
  int port() const { return runtime_->metrics_ports()[0]; }

  std::string worker_;
  std::unique_ptr<v1::WorkerService::Stub> stub_;
};

TEST_F(TargetedWakeTest, AJobForOneGpuCostsOneClaimNotOnePerParkedPoll) {
  OpenPolls polls;
  ParkOnFortyGpus(polls);
  const v1::Job job =
      Submit([](v1::JobSpec& spec) { spec.mutable_selector()->set_gpu_uuid("GPU-27"); });
  ASSERT_TRUE(polls.WaitAnswered(1, std::chrono::seconds(10)));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // as below
  EXPECT_EQ(polls.LeasedJobs(), std::vector<int64_t>{job.id()});
  EXPECT_EQ(polls.at(27).response.job().id(), job.id());
  EXPECT_EQ(NotifiedClaims(port(), "leased"), 1);
  EXPECT_EQ(NotifiedClaims(port(), "empty"), 0);  // before: 39 polls of other GPUs claimed too
}

TEST_F(TargetedWakeTest, AJobAnyGpuMayTakeCostsOneClaim) {
  OpenPolls polls;
  ParkOnFortyGpus(polls);
  const v1::Job job = Submit();
  ASSERT_TRUE(polls.WaitAnswered(1, std::chrono::seconds(10)));
  // Room for claims the pass would make after the lease if it did not stop there (a later read
  // can only see more of them, never fewer).
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(polls.LeasedJobs(), std::vector<int64_t>{job.id()});
  EXPECT_EQ(NotifiedClaims(port(), "leased"), 1);
  EXPECT_EQ(NotifiedClaims(port(), "empty"), 0);
}

TEST_F(TargetedWakeTest, AJobForAnotherModelWakesNoPoll) {
  OpenPolls polls;
  ParkOnFortyGpus(polls);
  const v1::Job job =
      Submit([](v1::JobSpec& spec) { spec.mutable_selector()->set_gpu_model("*A100*"); });
  // The notification arrives and is matched against every parked poll: none may take it.
  const v1::Job other =
      Submit([](v1::JobSpec& spec) { spec.mutable_selector()->set_gpu_uuid("GPU-3"); });
  ASSERT_TRUE(polls.WaitAnswered(1, std::chrono::seconds(10)));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // as above
  EXPECT_EQ(polls.LeasedJobs(), std::vector<int64_t>{other.id()});
  EXPECT_EQ(GetJob(job.id()).state(), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(NotifiedClaims(port(), "leased"), 1);
  EXPECT_EQ(NotifiedClaims(port(), "empty"), 0);
}

}  // namespace
}  // namespace warpwatch::testing
