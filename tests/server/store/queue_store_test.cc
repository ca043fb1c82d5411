// Tests of the job queue in the PostgreSQL store: claiming and selectors (leases and finishing:
// lease_store_test.cc).
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

using std::chrono::seconds;

using QueueStoreTest = StoreTest;

TEST_F(QueueStoreTest, ClaimTakesHighestPriorityThenOldest) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job low = Enqueue();
  const v1::Job high1 = Enqueue([](v1::JobSpec& s) { s.set_priority(5); });
  const v1::Job high2 = Enqueue([](v1::JobSpec& s) { s.set_priority(5); });
  std::vector<int64_t> order;
  for (int i = 0; i < 3; ++i) {
    std::optional<Lease> lease = Claim(w, "GPU-1");
    ASSERT_TRUE(lease.has_value());
    order.push_back(lease->job.id());
  }
  EXPECT_EQ(order, (std::vector<int64_t>{high1.id(), high2.id(), low.id()}));
  EXPECT_FALSE(Claim(w, "GPU-1").has_value());
}

TEST_F(QueueStoreTest, ClaimLeasesTheJobAndCreatesARun) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  std::optional<Lease> lease = Claim(w, "GPU-1", seconds(30));
  ASSERT_TRUE(lease.has_value());
  EXPECT_EQ(lease->job.id(), job.id());
  EXPECT_EQ(lease->job.state(), v1::JOB_STATE_RUNNING);
  EXPECT_EQ(lease->job.lease_owner(), w);
  EXPECT_EQ(lease->job.attempts(), 1);
  EXPECT_EQ(lease->job.device_uuid(), "GPU-1");
  EXPECT_TRUE(lease->job.has_started_at());
  EXPECT_GT(lease->run_id, 0);
  EXPECT_GT(lease->expiry.seconds(), lease->job.started_at().seconds() + 25);
  EXPECT_EQ(lease->expiry.SerializeAsString(), lease->job.lease_expiry().SerializeAsString());
}

TEST_F(QueueStoreTest, ClaimRefusesUnknownWorkersAndForeignDevices) {
  const std::string w1 = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const std::string w2 = Register({MakeDevice("GPU-2", "NVIDIA H100")});
  EXPECT_EQ(store_->ClaimJob("nobody", "GPU-1", seconds(1)).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->ClaimJob(w1, "GPU-2", seconds(1)).status().code(), StatusCode::kNotFound);
}

TEST_F(QueueStoreTest, ManyThreadsClaimingNeverGetTheSameJob) {
  constexpr int kThreads = 8;
  constexpr int kJobs = 300;
  std::vector<v1::Device> devices;
  for (int t = 0; t < kThreads; ++t)
    devices.push_back(MakeDevice("GPU-" + std::to_string(t), "NVIDIA H100"));
  const std::string w = Register(devices);
  for (int i = 0; i < kJobs; ++i) Enqueue();

  std::mutex mu;
  std::map<int64_t, int> claimed;  // job id -> times; guarded by mu
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  // Bounded: a thread gives up after a few errors or once the deadline passes, so a persistent
  // error fails the test instead of hanging it.
  constexpr int kMaxErrorsPerThread = 5;
  const auto deadline = std::chrono::steady_clock::now() + seconds(60);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      int my_errors = 0;
      while (std::chrono::steady_clock::now() < deadline) {
        StatusOr<std::optional<Lease>> r =
            store_->ClaimJob(w, "GPU-" + std::to_string(t), seconds(60));
        if (!r.ok()) {
          ++errors;
          ADD_FAILURE() << "claim failed: " << r.status().ToString();
          if (++my_errors >= kMaxErrorsPerThread) return;
          continue;
        }
        if (!r->has_value()) return;
        std::lock_guard<std::mutex> lock(mu);
        ++claimed[(*r)->job.id()];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(claimed.size(), static_cast<size_t>(kJobs));
  for (const auto& [id, times] : claimed) EXPECT_EQ(times, 1) << "job " << id;
}

TEST_F(QueueStoreTest, ModelSelectorMatchesExactlyOrByGlob) {
  const std::string w = Register(
      {MakeDevice("GPU-H", "NVIDIA H100 80GB HBM3"), MakeDevice("GPU-A", "NVIDIA A100-SXM4-40GB")});
  const v1::Job exact =
      Enqueue([](v1::JobSpec& s) { s.mutable_selector()->set_gpu_model("NVIDIA A100-SXM4-40GB"); });
  const v1::Job glob =
      Enqueue([](v1::JobSpec& s) { s.mutable_selector()->set_gpu_model("*H100*"); });
  // "_" and "%" are literal in a glob: this matches neither GPU.
  Enqueue([](v1::JobSpec& s) { s.mutable_selector()->set_gpu_model("NVIDIA_H100%"); });
  const v1::Job single =
      Enqueue([](v1::JobSpec& s) { s.mutable_selector()->set_gpu_model("NVIDIA ?100 80GB HBM3"); });

  std::optional<Lease> h1 = Claim(w, "GPU-H");
  std::optional<Lease> h2 = Claim(w, "GPU-H");
  ASSERT_TRUE(h1.has_value());
  ASSERT_TRUE(h2.has_value());
  EXPECT_EQ(h1->job.id(), glob.id());
  EXPECT_EQ(h2->job.id(), single.id());
  EXPECT_FALSE(Claim(w, "GPU-H").has_value());
  std::optional<Lease> a = Claim(w, "GPU-A");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->job.id(), exact.id());
  EXPECT_FALSE(Claim(w, "GPU-A").has_value());
}

TEST_F(QueueStoreTest, UuidSelectorMatchesOnlyThatGpu) {
  const std::string w =
      Register({MakeDevice("GPU-1", "NVIDIA H100"), MakeDevice("GPU-2", "NVIDIA H100")});
  const v1::Job job = Enqueue([](v1::JobSpec& s) { s.mutable_selector()->set_gpu_uuid("GPU-2"); });
  EXPECT_FALSE(Claim(w, "GPU-1").has_value());
  std::optional<Lease> lease = Claim(w, "GPU-2");
  ASSERT_TRUE(lease.has_value());
  EXPECT_EQ(lease->job.id(), job.id());
}

TEST_F(QueueStoreTest, WorkerLabelSelectorNeedsEveryPairOnTheWorker) {
  const std::string plain = Register({MakeDevice("GPU-1", "NVIDIA H100")}, {{"rack", "a"}});
  const std::string lab =
      Register({MakeDevice("GPU-2", "NVIDIA H100")}, {{"rack", "a"}, {"pool", "lab"}});
  const v1::Job job = Enqueue([](v1::JobSpec& s) {
    (*s.mutable_selector()->mutable_worker_labels())["rack"] = "a";
    (*s.mutable_selector()->mutable_worker_labels())["pool"] = "lab";
  });
  EXPECT_FALSE(Claim(plain, "GPU-1").has_value());
  std::optional<Lease> lease = Claim(lab, "GPU-2");
  ASSERT_TRUE(lease.has_value());
  EXPECT_EQ(lease->job.id(), job.id());
}

}  // namespace
}  // namespace warpwatch::server::testing
