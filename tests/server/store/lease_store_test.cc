// Tests of leases in the PostgreSQL store: expiry and requeue, heartbeats, finishing, releasing,
// progress, and runs that lost their lease.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

using LeaseStoreTest = StoreTest;

TEST_F(LeaseStoreTest, ExpiredLeaseRequeuesWithTheAttemptCounted) {
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

TEST_F(LeaseStoreTest, LiveLeasesAreNotRequeued) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  Enqueue();
  ASSERT_TRUE(Claim(w, "GPU-1", seconds(30)).has_value());
  ASSERT_OK_AND_ASSIGN(int reaped, store_->RequeueExpiredLeases());
  EXPECT_EQ(reaped, 0);
}

TEST_F(LeaseStoreTest, MaxAttemptsOfExpiredLeasesFailTheJobWithTheReason) {
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

TEST_F(LeaseStoreTest, ExpiredLeaseOfACancelledJobEndsItCancelled) {
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

TEST_F(LeaseStoreTest, AHeartbeatExtendsHeldLeasesAndReportsLostAndCancelledRuns) {
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

TEST_F(LeaseStoreTest, FinishSucceededEndsTheJob) {
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

TEST_F(LeaseStoreTest, FinishFailedKeepsTheError) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  std::optional<Lease> lease = Claim(w, "GPU-1");
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK_AND_ASSIGN(v1::Job done, store_->FinishJob(w, job.id(), lease->run_id,
                                                       v1::JOB_OUTCOME_FAILED, "child crashed"));
  EXPECT_EQ(done.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(done.error(), "child crashed");
}

TEST_F(LeaseStoreTest, ReleasedJobIsRequeuedWithoutCountingTheAttempt) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  std::optional<Lease> lease = Claim(w, "GPU-1");
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK_AND_ASSIGN(v1::Job back,
                       store_->FinishJob(w, job.id(), lease->run_id, v1::JOB_OUTCOME_RELEASED, ""));
  EXPECT_EQ(back.state(), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(back.attempts(), 0);
  // Not back to the worker that released it (Store::kReleaseBackoff), to another at once.
  EXPECT_FALSE(Claim(w, "GPU-1").has_value());
  const std::string other = Register({MakeDevice("GPU-2", "NVIDIA H100")});
  std::optional<Lease> again = Claim(other, "GPU-2");
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->job.id(), job.id());
  EXPECT_EQ(again->job.attempts(), 1);
}

TEST_F(LeaseStoreTest, CancelledOutcomeNeedsACancelRequest) {
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

TEST_F(LeaseStoreTest, IllegalTransitionsAreRefused) {
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

TEST_F(LeaseStoreTest, ProgressIsRecordedAndReportsCancelRequests) {
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

TEST_F(LeaseStoreTest, AJobReleasedAfterACancelRequestEndsCancelledNotQueued) {
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

TEST_F(LeaseStoreTest, ARunThatLostItsLeaseCannotTouchTheJobsNewRunOnAnotherGpuOfTheSameWorker) {
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
