// Tests of the job queue in the PostgreSQL store: claiming, selectors, leases, finishing.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class QueueStoreTest : public StoreTest {
 protected:
  // Claims for (worker, uuid); asserts the call succeeded.
  std::optional<Lease> Claim(const std::string& worker, const std::string& uuid,
                             milliseconds lease = seconds(30)) {
    StatusOr<std::optional<Lease>> r = store_->ClaimJob(worker, uuid, lease);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : std::nullopt;
  }
};

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

TEST_F(QueueStoreTest, ExpiredLeaseRequeuesWithTheAttemptCounted) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  std::optional<Lease> first = Claim(w, "GPU-1", milliseconds(1));
  ASSERT_TRUE(first.has_value());
  std::this_thread::sleep_for(milliseconds(20));
  ASSERT_OK_AND_ASSIGN(int reaped, store_->RequeueExpiredLeases());
  EXPECT_EQ(reaped, 1);
  ASSERT_OK_AND_ASSIGN(v1::Job after, store_->GetJob(job.id()));
  EXPECT_EQ(after.state(), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(after.attempts(), 1);
  EXPECT_TRUE(after.lease_owner().empty());
  // The old holder lost it; another claim gets it again as attempt 2.
  EXPECT_EQ(store_->UpdateProgress(w, job.id(), first->run_id, 1, 10, "x").status().code(),
            StatusCode::kFailedPrecondition);
  std::optional<Lease> again = Claim(w, "GPU-1");
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->job.attempts(), 2);
  // The same worker holds the job again, but only through the new run.
  EXPECT_EQ(store_->UpdateProgress(w, job.id(), first->run_id, 1, 10, "x").status().code(),
            StatusCode::kFailedPrecondition);
  ASSERT_OK(store_->UpdateProgress(w, job.id(), again->run_id, 1, 10, "x").status());
}

TEST_F(QueueStoreTest, LiveLeasesAreNotRequeued) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  Enqueue();
  ASSERT_TRUE(Claim(w, "GPU-1", seconds(30)).has_value());
  ASSERT_OK_AND_ASSIGN(int reaped, store_->RequeueExpiredLeases());
  EXPECT_EQ(reaped, 0);
}

TEST_F(QueueStoreTest, MaxAttemptsOfExpiredLeasesFailTheJobWithTheReason) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue([](v1::JobSpec& s) { s.set_max_attempts(2); });
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(Claim(w, "GPU-1", milliseconds(1)).has_value()) << "attempt " << i + 1;
    std::this_thread::sleep_for(milliseconds(20));
    ASSERT_OK(store_->RequeueExpiredLeases().status());
  }
  ASSERT_OK_AND_ASSIGN(v1::Job after, store_->GetJob(job.id()));
  EXPECT_EQ(after.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(after.error(), "lease expired 2 times; max_attempts 2");
  EXPECT_TRUE(after.has_finished_at());
  EXPECT_FALSE(Claim(w, "GPU-1").has_value());
}

TEST_F(QueueStoreTest, ExpiredLeaseOfACancelledJobEndsItCancelled) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  ASSERT_TRUE(Claim(w, "GPU-1", milliseconds(1)).has_value());
  ASSERT_OK(store_->CancelJob(job.id(), "user said stop").status());
  std::this_thread::sleep_for(milliseconds(20));
  ASSERT_OK(store_->RequeueExpiredLeases().status());
  ASSERT_OK_AND_ASSIGN(v1::Job after, store_->GetJob(job.id()));
  EXPECT_EQ(after.state(), v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(after.error(), "user said stop");
}

TEST_F(QueueStoreTest, AHeartbeatExtendsHeldLeasesAndReportsLostAndCancelledRuns) {
  const std::string w =
      Register({MakeDevice("GPU-1", "NVIDIA H100"), MakeDevice("GPU-2", "NVIDIA H100")});
  const v1::Job a = Enqueue();
  const v1::Job b = Enqueue();
  std::optional<Lease> la = Claim(w, "GPU-1", seconds(5));
  std::optional<Lease> lb = Claim(w, "GPU-2", seconds(5));
  ASSERT_TRUE(la.has_value());
  ASSERT_TRUE(lb.has_value());
  ASSERT_EQ(lb->job.id(), b.id());
  ASSERT_OK(store_->CancelJob(b.id(), "").status());
  ASSERT_OK_AND_ASSIGN(LeaseRenewal r,
                       store_->RecordHeartbeat(w, {la->run_id, lb->run_id, 777}, seconds(60)));
  EXPECT_EQ(r.lost_run_ids, std::vector<int64_t>{777});
  EXPECT_EQ(r.cancel_requested_run_ids, std::vector<int64_t>{lb->run_id});
  EXPECT_GT(r.expiry.seconds(), la->expiry.seconds() + 50);
  ASSERT_OK_AND_ASSIGN(v1::Job after, store_->GetJob(a.id()));
  EXPECT_EQ(after.lease_expiry().SerializeAsString(), r.expiry.SerializeAsString());
  // Another worker extends nothing; an unknown one is NOT_FOUND.
  const std::string someone_else = Register({MakeDevice("GPU-3", "NVIDIA H100")});
  ASSERT_OK_AND_ASSIGN(LeaseRenewal other,
                       store_->RecordHeartbeat(someone_else, {la->run_id}, seconds(60)));
  EXPECT_EQ(other.lost_run_ids, std::vector<int64_t>{la->run_id});
  EXPECT_EQ(store_->RecordHeartbeat("no-such-worker", {la->run_id}, seconds(60)).status().code(),
            StatusCode::kNotFound);
}

TEST_F(QueueStoreTest, FinishSucceededEndsTheJob) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  std::optional<Lease> lease = Claim(w, "GPU-1");
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK_AND_ASSIGN(
      v1::Job done, store_->FinishJob(w, job.id(), lease->run_id, v1::JOB_OUTCOME_SUCCEEDED, ""));
  EXPECT_EQ(done.state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_TRUE(done.has_finished_at());
  EXPECT_TRUE(done.lease_owner().empty());
}

TEST_F(QueueStoreTest, FinishFailedKeepsTheError) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  std::optional<Lease> lease = Claim(w, "GPU-1");
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK_AND_ASSIGN(v1::Job done, store_->FinishJob(w, job.id(), lease->run_id,
                                                       v1::JOB_OUTCOME_FAILED, "child crashed"));
  EXPECT_EQ(done.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(done.error(), "child crashed");
}

TEST_F(QueueStoreTest, ReleasedJobIsRequeuedWithoutCountingTheAttempt) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  std::optional<Lease> lease = Claim(w, "GPU-1");
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK_AND_ASSIGN(v1::Job back,
                       store_->FinishJob(w, job.id(), lease->run_id, v1::JOB_OUTCOME_RELEASED, ""));
  EXPECT_EQ(back.state(), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(back.attempts(), 0);
  std::optional<Lease> again = Claim(w, "GPU-1");
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->job.attempts(), 1);
}

TEST_F(QueueStoreTest, CancelledOutcomeNeedsACancelRequest) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  std::optional<Lease> lease = Claim(w, "GPU-1");
  ASSERT_TRUE(lease.has_value());
  EXPECT_EQ(
      store_->FinishJob(w, job.id(), lease->run_id, v1::JOB_OUTCOME_CANCELLED, "").status().code(),
      StatusCode::kFailedPrecondition);
  ASSERT_OK(store_->CancelJob(job.id(), "enough").status());
  ASSERT_OK_AND_ASSIGN(
      v1::Job done, store_->FinishJob(w, job.id(), lease->run_id, v1::JOB_OUTCOME_CANCELLED, ""));
  EXPECT_EQ(done.state(), v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(done.error(), "enough");
}

TEST_F(QueueStoreTest, IllegalTransitionsAreRefused) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const std::string other = Register({MakeDevice("GPU-9", "NVIDIA H100")});
  const v1::Job queued = Enqueue();
  // Not leased yet: nobody may finish it.
  EXPECT_EQ(store_->FinishJob(w, queued.id(), 1, v1::JOB_OUTCOME_SUCCEEDED, "").status().code(),
            StatusCode::kFailedPrecondition);
  std::optional<Lease> lease = Claim(w, "GPU-1");
  ASSERT_TRUE(lease.has_value());
  const int64_t run = lease->run_id;
  // Held by w: another worker may neither finish it nor report progress.
  EXPECT_EQ(
      store_->FinishJob(other, queued.id(), run, v1::JOB_OUTCOME_SUCCEEDED, "").status().code(),
      StatusCode::kFailedPrecondition);
  EXPECT_EQ(store_->UpdateProgress(other, queued.id(), run, 1, 10, "c").status().code(),
            StatusCode::kFailedPrecondition);
  // Nor may w through a run that is not the job's lease.
  EXPECT_EQ(
      store_->FinishJob(w, queued.id(), run + 1, v1::JOB_OUTCOME_SUCCEEDED, "").status().code(),
      StatusCode::kFailedPrecondition);
  EXPECT_EQ(store_->FinishJob(w, queued.id(), run, v1::JOB_OUTCOME_UNSPECIFIED, "").status().code(),
            StatusCode::kInvalidArgument);
  ASSERT_OK(store_->FinishJob(w, queued.id(), run, v1::JOB_OUTCOME_SUCCEEDED, "").status());
  // Finished: finishing again is refused, and the state stays.
  EXPECT_EQ(store_->FinishJob(w, queued.id(), run, v1::JOB_OUTCOME_FAILED, "late").status().code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(store_->FinishJob(w, 4242, run, v1::JOB_OUTCOME_FAILED, "").status().code(),
            StatusCode::kNotFound);
  ASSERT_OK_AND_ASSIGN(v1::Job after, store_->GetJob(queued.id()));
  EXPECT_EQ(after.state(), v1::JOB_STATE_SUCCEEDED);
}

TEST_F(QueueStoreTest, ProgressIsRecordedAndReportsCancelRequests) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  std::optional<Lease> lease = Claim(w, "GPU-1");
  ASSERT_TRUE(lease.has_value());
  const int64_t run = lease->run_id;
  ASSERT_OK_AND_ASSIGN(bool cancel,
                       store_->UpdateProgress(w, job.id(), run, 3, 12, "reduce/warp?n=1"));
  EXPECT_FALSE(cancel);
  ASSERT_OK_AND_ASSIGN(v1::Job after, store_->GetJob(job.id()));
  EXPECT_EQ(after.points_done(), 3);
  EXPECT_EQ(after.points_total(), 12);
  EXPECT_EQ(after.current_case(), "reduce/warp?n=1");
  ASSERT_OK(store_->CancelJob(job.id(), "").status());
  ASSERT_OK_AND_ASSIGN(bool cancel2, store_->UpdateProgress(w, job.id(), run, 4, 0, "x"));
  EXPECT_TRUE(cancel2);
  EXPECT_EQ(store_->UpdateProgress(w, 999, run, 1, 1, "").status().code(), StatusCode::kNotFound);
}

TEST_F(QueueStoreTest, AJobReleasedAfterACancelRequestEndsCancelledNotQueued) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  std::optional<Lease> lease = Claim(w, "GPU-1");
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK(store_->CancelJob(job.id(), "stop it").status());
  // The worker shuts down before it heard of the cancel, and hands the job back.
  ASSERT_OK_AND_ASSIGN(v1::Job back,
                       store_->FinishJob(w, job.id(), lease->run_id, v1::JOB_OUTCOME_RELEASED, ""));
  EXPECT_EQ(back.state(), v1::JOB_STATE_CANCELLED);
  EXPECT_TRUE(back.has_finished_at());
  EXPECT_FALSE(Claim(w, "GPU-1").has_value());  // it does not run again
}

TEST_F(QueueStoreTest, ARunThatLostItsLeaseCannotTouchTheJobsNewRunOnAnotherGpuOfTheSameWorker) {
  // Issue 14, item 2: a two-GPU worker cut off past its lease.
  const std::string w =
      Register({MakeDevice("GPU-1", "NVIDIA H100"), MakeDevice("GPU-2", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  std::optional<Lease> r1 = Claim(w, "GPU-1", milliseconds(1));
  ASSERT_TRUE(r1.has_value());
  ASSERT_OK(store_
                ->UploadMeasurements(r1->run_id, w, {}, {[] {
                                       v1::Measurement m;
                                       m.mutable_case_()->set_canonical("memory.copy/x?n=1");
                                       return m;
                                     }()})
                .status());
  std::this_thread::sleep_for(milliseconds(20));
  ASSERT_OK_AND_ASSIGN(int reaped, store_->RequeueExpiredLeases());
  ASSERT_EQ(reaped, 1);
  std::optional<Lease> r2 = Claim(w, "GPU-2", seconds(30));  // the worker's other GPU
  ASSERT_TRUE(r2.has_value());
  ASSERT_EQ(r2->job.id(), job.id());
  // GPU-1's run keeps beating and reporting: its lease is lost, the new run's is untouched.
  ASSERT_OK_AND_ASSIGN(LeaseRenewal renewal, store_->RecordHeartbeat(w, {r1->run_id}, seconds(600)));
  EXPECT_EQ(renewal.lost_run_ids, std::vector<int64_t>{r1->run_id});
  ASSERT_OK_AND_ASSIGN(v1::Job held, store_->GetJob(job.id()));
  EXPECT_EQ(held.lease_expiry().seconds(), r2->expiry.seconds());
  EXPECT_EQ(store_->UpdateProgress(w, job.id(), r1->run_id, 9, 10, "x").status().code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(store_
                ->UploadMeasurements(r1->run_id, w, {}, {[] {
                                       v1::Measurement m;
                                       m.mutable_case_()->set_canonical("memory.copy/x?n=2");
                                       return m;
                                     }()})
                .status()
                .code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(
      store_->FinishJob(w, job.id(), r1->run_id, v1::JOB_OUTCOME_SUCCEEDED, "").status().code(),
      StatusCode::kFailedPrecondition);
  // The job still runs as R2; R1 stays FAILED.
  ASSERT_OK_AND_ASSIGN(v1::Job after, store_->GetJob(job.id()));
  EXPECT_EQ(after.state(), v1::JOB_STATE_RUNNING);
  ASSERT_OK_AND_ASSIGN(v1::Job done,
                       store_->FinishJob(w, job.id(), r2->run_id, v1::JOB_OUTCOME_SUCCEEDED, ""));
  EXPECT_EQ(done.state(), v1::JOB_STATE_SUCCEEDED);
}

}  // namespace
}  // namespace warpwatch::server::testing
