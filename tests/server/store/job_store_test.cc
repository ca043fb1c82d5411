// Tests of the JobService side of the PostgreSQL store: enqueue, get, list, cancel.
#include <google/protobuf/util/time_util.h>
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

using google::protobuf::util::TimeUtil;

class JobStoreTest : public StoreTest {};

TEST_F(JobStoreTest, EnqueuedJobIsQueuedWithItsSpecAndDefaults) {
  v1::JobSpec spec = MakeSpec("reduce");
  spec.add_variants("warp_*");
  (*spec.mutable_labels())["git_sha"] = "abc123";
  spec.set_priority(7);
  spec.mutable_measurement()->set_target_noise(0.01);
  ASSERT_OK_AND_ASSIGN(v1::Job job, store_->EnqueueJob(spec, 42, "alice", ""));
  EXPECT_GT(job.id(), 0);
  EXPECT_EQ(job.state(), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(job.points_total(), 42);
  EXPECT_EQ(job.submitted_by(), "alice");
  EXPECT_EQ(job.attempts(), 0);
  EXPECT_TRUE(job.has_created_at());
  EXPECT_FALSE(job.has_started_at());
  EXPECT_EQ(job.spec().max_attempts(), kDefaultMaxAttempts);
  v1::JobSpec expected = spec;
  expected.set_max_attempts(kDefaultMaxAttempts);
  EXPECT_EQ(job.spec().SerializeAsString(), expected.SerializeAsString());

  ASSERT_OK_AND_ASSIGN(v1::Job fetched, store_->GetJob(job.id()));
  EXPECT_EQ(fetched.SerializeAsString(), job.SerializeAsString());
}

TEST_F(JobStoreTest, GetUnknownJobIsNotFound) {
  EXPECT_EQ(store_->GetJob(12345).status().code(), StatusCode::kNotFound);
}

TEST_F(JobStoreTest, PingAnswersOk) { ASSERT_OK(store_->Ping()); }

TEST_F(JobStoreTest, ListReturnsNewestFirstInPagesWithoutGapsOrRepeats) {
  std::vector<int64_t> ids;
  for (int i = 0; i < 7; ++i) ids.push_back(Enqueue().id());
  std::vector<int64_t> seen;
  JobFilter filter;
  filter.page_size = 3;
  int pages = 0;
  while (true) {
    ASSERT_OK_AND_ASSIGN(JobPage page, store_->ListJobs(filter));
    ++pages;
    EXPECT_LE(page.jobs.size(), 3u);
    for (const v1::Job& j : page.jobs) seen.push_back(j.id());
    if (page.next_page_token.empty()) break;
    filter.page_token = page.next_page_token;
  }
  EXPECT_EQ(pages, 3);
  std::vector<int64_t> expected(ids.rbegin(), ids.rend());
  EXPECT_EQ(seen, expected);
}

TEST_F(JobStoreTest, ListRejectsAMalformedPageToken) {
  JobFilter filter;
  filter.page_token = "garbage";
  EXPECT_EQ(store_->ListJobs(filter).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(JobStoreTest, ListRejectsAPageTokenPastInt64InsteadOfWrappingAround) {
  // The token format of the first release ("ww1.<id>"): an id past INT64_MAX was parsed with
  // overflow (2^64 + 2 wrapped to 2 and answered job 1). Tokens are opaque now (page_token_test
  // covers their id parsing); the old text is refused as malformed.
  for (int i = 0; i < 3; ++i) Enqueue();
  JobFilter filter;
  filter.page_token = "ww1.18446744073709551618";
  EXPECT_EQ(store_->ListJobs(filter).status().code(), StatusCode::kInvalidArgument);
  filter.page_token = "ww1.9223372036854775808";  // INT64_MAX + 1
  EXPECT_EQ(store_->ListJobs(filter).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(JobStoreTest, APageTokenIsRefusedWithOtherFilters) {
  for (int i = 0; i < 5; ++i) Enqueue();
  JobFilter filter;
  filter.page_size = 2;
  filter.states = {v1::JOB_STATE_QUEUED};
  ASSERT_OK_AND_ASSIGN(JobPage first, store_->ListJobs(filter));
  ASSERT_FALSE(first.next_page_token.empty());
  filter.page_token = first.next_page_token;
  ASSERT_OK(store_->ListJobs(filter).status());  // same filters: fine, page size may change too
  filter.page_size = 3;
  ASSERT_OK(store_->ListJobs(filter).status());
  filter.states = {v1::JOB_STATE_RUNNING};
  EXPECT_EQ(store_->ListJobs(filter).status().code(), StatusCode::kInvalidArgument);
  filter.states = {};
  filter.labels["git_sha"] = "abc";
  EXPECT_EQ(store_->ListJobs(filter).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(JobStoreTest, APageSizeAboveTheMaximumIsClampedNotRefused) {
  for (int i = 0; i < 3; ++i) Enqueue();
  JobFilter filter;
  filter.page_size = 1000000;
  ASSERT_OK_AND_ASSIGN(JobPage page, store_->ListJobs(filter));
  EXPECT_EQ(page.jobs.size(), 3u);
  EXPECT_EQ(EffectivePageSize(1000000, kJobPageSizes), kJobPageSizes.max_size);
  EXPECT_EQ(EffectivePageSize(0, kJobPageSizes), kJobPageSizes.default_size);
}

TEST_F(JobStoreTest, ARetriedSubmitWithItsRequestIdReturnsTheFirstJob) {
  ASSERT_OK_AND_ASSIGN(v1::Job first, store_->EnqueueJob(MakeSpec(), 1, "ci", "req-1"));
  ASSERT_OK_AND_ASSIGN(v1::Job retry, store_->EnqueueJob(MakeSpec(), 1, "ci", "req-1"));
  EXPECT_EQ(retry.id(), first.id());
  // The key is per submitter, and a different spec under one key is refused.
  ASSERT_OK_AND_ASSIGN(v1::Job other, store_->EnqueueJob(MakeSpec(), 1, "nightly", "req-1"));
  EXPECT_NE(other.id(), first.id());
  EXPECT_EQ(store_->EnqueueJob(MakeSpec("reduce"), 1, "ci", "req-1").status().code(),
            StatusCode::kAlreadyExists);
  // Without a key every submit is a new job.
  ASSERT_OK_AND_ASSIGN(v1::Job a, store_->EnqueueJob(MakeSpec(), 1, "ci", ""));
  ASSERT_OK_AND_ASSIGN(v1::Job b, store_->EnqueueJob(MakeSpec(), 1, "ci", ""));
  EXPECT_NE(a.id(), b.id());
  ASSERT_OK_AND_ASSIGN(auto counts, store_->CountJobsByState());
  EXPECT_EQ(counts[v1::JOB_STATE_QUEUED], 4);
}

TEST_F(JobStoreTest, ListFiltersByStateAndLabels) {
  const v1::Job a = Enqueue([](v1::JobSpec& s) {
    (*s.mutable_labels())["git_sha"] = "aaa";
    (*s.mutable_labels())["suite"] = "nightly";
  });
  const v1::Job b = Enqueue([](v1::JobSpec& s) { (*s.mutable_labels())["git_sha"] = "bbb"; });
  ASSERT_OK(store_->CancelJob(b.id(), "").status());

  JobFilter by_label;
  by_label.labels = {{"git_sha", "aaa"}};
  ASSERT_OK_AND_ASSIGN(JobPage p1, store_->ListJobs(by_label));
  ASSERT_EQ(p1.jobs.size(), 1u);
  EXPECT_EQ(p1.jobs[0].id(), a.id());

  JobFilter both_labels;
  both_labels.labels = {{"git_sha", "aaa"}, {"suite", "weekly"}};
  ASSERT_OK_AND_ASSIGN(JobPage p2, store_->ListJobs(both_labels));
  EXPECT_TRUE(p2.jobs.empty());

  JobFilter cancelled;
  cancelled.states = {v1::JOB_STATE_CANCELLED};
  ASSERT_OK_AND_ASSIGN(JobPage p3, store_->ListJobs(cancelled));
  ASSERT_EQ(p3.jobs.size(), 1u);
  EXPECT_EQ(p3.jobs[0].id(), b.id());

  JobFilter queued_or_cancelled;
  queued_or_cancelled.states = {v1::JOB_STATE_QUEUED, v1::JOB_STATE_CANCELLED};
  ASSERT_OK_AND_ASSIGN(JobPage p4, store_->ListJobs(queued_or_cancelled));
  EXPECT_EQ(p4.jobs.size(), 2u);
}

TEST_F(JobStoreTest, ListFiltersByGpuModelAndUuidOfSelectorOrRun) {
  const std::string worker = Register({MakeDevice("GPU-1", "NVIDIA H100 80GB HBM3")});
  const v1::Job named =
      Enqueue([](v1::JobSpec& s) { s.mutable_selector()->set_gpu_model("NVIDIA A100"); });
  const v1::Job ran = Enqueue();
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(worker, "GPU-1", std::chrono::seconds(30)));
  ASSERT_TRUE(lease.has_value());
  EXPECT_EQ(lease->job.id(), ran.id());  // the A100 job does not match this H100

  JobFilter a100;
  a100.gpu_model = "NVIDIA A100";
  ASSERT_OK_AND_ASSIGN(JobPage p1, store_->ListJobs(a100));
  ASSERT_EQ(p1.jobs.size(), 1u);
  EXPECT_EQ(p1.jobs[0].id(), named.id());

  JobFilter h100;
  h100.gpu_model = "NVIDIA H100 80GB HBM3";
  ASSERT_OK_AND_ASSIGN(JobPage p2, store_->ListJobs(h100));
  ASSERT_EQ(p2.jobs.size(), 1u);
  EXPECT_EQ(p2.jobs[0].id(), ran.id());

  JobFilter uuid;
  uuid.gpu_uuid = "GPU-1";
  ASSERT_OK_AND_ASSIGN(JobPage p3, store_->ListJobs(uuid));
  ASSERT_EQ(p3.jobs.size(), 1u);
  EXPECT_EQ(p3.jobs[0].id(), ran.id());
}

TEST_F(JobStoreTest, ListFiltersByCreationTimeHalfOpen) {
  const v1::Job first = Enqueue();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const v1::Job second = Enqueue();

  JobFilter from_second;
  *from_second.created.mutable_start() = second.created_at();
  ASSERT_OK_AND_ASSIGN(JobPage p1, store_->ListJobs(from_second));
  ASSERT_EQ(p1.jobs.size(), 1u);
  EXPECT_EQ(p1.jobs[0].id(), second.id());

  JobFilter before_second;
  *before_second.created.mutable_end() = second.created_at();
  ASSERT_OK_AND_ASSIGN(JobPage p2, store_->ListJobs(before_second));
  ASSERT_EQ(p2.jobs.size(), 1u);
  EXPECT_EQ(p2.jobs[0].id(), first.id());
}

TEST_F(JobStoreTest, CancellingAQueuedJobEndsItCancelledAtOnce) {
  const v1::Job job = Enqueue();
  ASSERT_OK_AND_ASSIGN(v1::Job cancelled, store_->CancelJob(job.id(), "not needed"));
  EXPECT_EQ(cancelled.state(), v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(cancelled.error(), "not needed");
  EXPECT_TRUE(cancelled.has_finished_at());
}

TEST_F(JobStoreTest, CancellingARunningJobOnlyRequestsIt) {
  const std::string worker = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(worker, "GPU-1", std::chrono::seconds(30)));
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK_AND_ASSIGN(v1::Job flagged, store_->CancelJob(job.id(), "stop"));
  EXPECT_EQ(flagged.state(), v1::JOB_STATE_RUNNING);
  EXPECT_TRUE(flagged.cancel_requested());
  // Asking twice is fine.
  ASSERT_OK(store_->CancelJob(job.id(), "stop again").status());
}

TEST_F(JobStoreTest, AJobThatSucceedsDespiteACancelRequestCarriesNoCancelReason) {
  const std::string worker = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(worker, "GPU-1", std::chrono::seconds(30)));
  ASSERT_TRUE(lease.has_value());
  ASSERT_OK_AND_ASSIGN(v1::Job flagged, store_->CancelJob(job.id(), "stop"));
  EXPECT_EQ(flagged.error(), "");  // not cancelled (yet)
  // The worker finished its last point before it heard of the cancel.
  ASSERT_OK_AND_ASSIGN(v1::Job done, store_->FinishJob(worker, job.id(), lease->run_id,
                                                       v1::JOB_OUTCOME_SUCCEEDED, ""));
  EXPECT_EQ(done.state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(done.error(), "");
}

TEST_F(JobStoreTest, CancellingAFinishedJobIsAFailedPrecondition) {
  const v1::Job job = Enqueue();
  ASSERT_OK(store_->CancelJob(job.id(), "").status());
  EXPECT_EQ(store_->CancelJob(job.id(), "").status().code(), StatusCode::kFailedPrecondition);
}

TEST_F(JobStoreTest, CancellingAnUnknownJobIsNotFound) {
  EXPECT_EQ(store_->CancelJob(999, "").status().code(), StatusCode::kNotFound);
}

TEST_F(JobStoreTest, CountsJobsByStateLeavingOutStatesWithoutJobs) {
  ASSERT_TRUE(store_->EnqueueJob(MakeSpec(), 1, "alice", "").ok());
  ASSERT_OK_AND_ASSIGN(v1::Job second, store_->EnqueueJob(MakeSpec(), 1, "alice", ""));
  ASSERT_TRUE(store_->EnqueueJob(MakeSpec(), 1, "alice", "").ok());
  ASSERT_TRUE(store_->CancelJob(second.id(), "not needed").ok());
  ASSERT_OK_AND_ASSIGN(auto counts, store_->CountJobsByState());
  EXPECT_EQ(counts, (std::map<v1::JobState, int64_t>{{v1::JOB_STATE_QUEUED, 2},
                                                     {v1::JOB_STATE_CANCELLED, 1}}));
}

}  // namespace
}  // namespace warpwatch::server::testing
