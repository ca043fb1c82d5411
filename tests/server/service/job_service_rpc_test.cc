// File: tests/server/service/job_service_rpc_test.cc
// JobService happy paths and their NOT_FOUND / FAILED_PRECONDITION answers, over a real channel
// and a real PostgreSQL.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include "tests/server/runtime/rpc_test_fixture.h"

namespace warpwatch::testing {
namespace {

class JobServiceRpcTest : public RpcTest {
 protected:
  void SetUp() override {
    RpcTest::SetUp();
    if (HasFatalFailure()) return;
    StartServer();
    stub_ = JobStub();
  }

  v1::Job Submit(v1::JobSpec spec) {
    v1::SubmitJobRequest request;
    *request.mutable_spec() = std::move(spec);
    v1::Job job;
    grpc::Status status = stub_->SubmitJob(Context().get(), request, &job);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return job;
  }

  std::unique_ptr<v1::JobService::Stub> stub_;
};

TEST_F(JobServiceRpcTest, SubmitStoresAQueuedJobWithItsPointCount) {
  v1::JobSpec spec = ValidSpec();
  v1::AxisOverride* n = spec.add_axes();
  n->set_axis("n");
  n->add_values(1024);
  n->add_values(4096);
  n->add_values(65536);
  (*spec.mutable_labels())["git_sha"] = "abc123";
  spec.set_priority(5);
  v1::Job job = Submit(spec);
  EXPECT_GT(job.id(), 0);
  EXPECT_EQ(job.state(), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(job.points_total(), 3);  // one variant, one block size, three n
  EXPECT_EQ(job.spec().labels().at("git_sha"), "abc123");
  EXPECT_EQ(job.spec().priority(), 5);
}

TEST_F(JobServiceRpcTest, GetJobReturnsTheSubmittedJob) {
  v1::Job submitted = Submit(ValidSpec());
  v1::GetJobRequest request;
  request.set_job_id(submitted.id());
  v1::Job job;
  ASSERT_TRUE(stub_->GetJob(Context().get(), request, &job).ok());
  EXPECT_EQ(job.id(), submitted.id());
  EXPECT_EQ(job.spec().families(0), "reduce");
}

TEST_F(JobServiceRpcTest, GetJobOfAnUnknownIdIsNotFound) {
  v1::GetJobRequest request;
  request.set_job_id(424242);
  v1::Job job;
  EXPECT_EQ(stub_->GetJob(Context().get(), request, &job).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(JobServiceRpcTest, ListJobsReturnsNewestFirstAndFiltersByStateAndLabel) {
  v1::JobSpec labelled = ValidSpec();
  (*labelled.mutable_labels())["build"] = "42";
  v1::Job first = Submit(ValidSpec());
  v1::Job second = Submit(labelled);
  v1::Job third = Submit(ValidSpec());
  v1::CancelJobRequest cancel;
  cancel.set_job_id(third.id());
  v1::Job cancelled;
  ASSERT_TRUE(stub_->CancelJob(Context().get(), cancel, &cancelled).ok());

  v1::ListJobsResponse all;
  ASSERT_TRUE(stub_->ListJobs(Context().get(), v1::ListJobsRequest(), &all).ok());
  ASSERT_EQ(all.jobs_size(), 3);
  EXPECT_EQ(all.jobs(0).id(), third.id());
  EXPECT_EQ(all.jobs(2).id(), first.id());

  v1::ListJobsRequest queued;
  queued.add_states(v1::JOB_STATE_QUEUED);
  v1::ListJobsResponse queued_jobs;
  ASSERT_TRUE(stub_->ListJobs(Context().get(), queued, &queued_jobs).ok());
  EXPECT_EQ(queued_jobs.jobs_size(), 2);

  v1::ListJobsRequest by_label;
  (*by_label.mutable_labels())["build"] = "42";
  v1::ListJobsResponse labelled_jobs;
  ASSERT_TRUE(stub_->ListJobs(Context().get(), by_label, &labelled_jobs).ok());
  ASSERT_EQ(labelled_jobs.jobs_size(), 1);
  EXPECT_EQ(labelled_jobs.jobs(0).id(), second.id());
}

TEST_F(JobServiceRpcTest, ListJobsPagesWithTokens) {
  for (int i = 0; i < 3; ++i) Submit(ValidSpec());
  v1::ListJobsRequest request;
  request.set_page_size(2);
  v1::ListJobsResponse page1;
  ASSERT_TRUE(stub_->ListJobs(Context().get(), request, &page1).ok());
  ASSERT_EQ(page1.jobs_size(), 2);
  ASSERT_FALSE(page1.next_page_token().empty());
  request.set_page_token(page1.next_page_token());
  v1::ListJobsResponse page2;
  ASSERT_TRUE(stub_->ListJobs(Context().get(), request, &page2).ok());
  ASSERT_EQ(page2.jobs_size(), 1);
  EXPECT_LT(page2.jobs(0).id(), page1.jobs(1).id());
}

TEST_F(JobServiceRpcTest, ARetryWithTheSameRequestIdReturnsTheFirstJobInsteadOfADuplicate) {
  v1::SubmitJobRequest request;
  *request.mutable_spec() = ValidSpec();
  request.set_request_id("ci-pipeline-4711-nightly");
  v1::Job first;
  ASSERT_TRUE(stub_->SubmitJob(Context().get(), request, &first).ok());
  v1::Job retry;  // e.g. the first reply was lost past the client's deadline
  ASSERT_TRUE(stub_->SubmitJob(Context().get(), request, &retry).ok());
  EXPECT_EQ(retry.id(), first.id());
  v1::ListJobsRequest list;
  v1::ListJobsResponse all;
  ASSERT_TRUE(stub_->ListJobs(Context().get(), list, &all).ok());
  EXPECT_EQ(all.jobs_size(), 1);
  // The same key with another spec is a client bug: refused, nothing queued.
  request.mutable_spec()->set_priority(9);
  v1::Job conflict;
  EXPECT_EQ(stub_->SubmitJob(Context().get(), request, &conflict).error_code(),
            grpc::StatusCode::ALREADY_EXISTS);
  ASSERT_TRUE(stub_->ListJobs(Context().get(), list, &all).ok());
  EXPECT_EQ(all.jobs_size(), 1);
}

TEST_F(JobServiceRpcTest, APageTokenReusedWithOtherFiltersIsRefused) {
  for (int i = 0; i < 3; ++i) Submit(ValidSpec());
  v1::ListJobsRequest request;
  request.set_page_size(1);
  request.add_states(v1::JOB_STATE_QUEUED);
  v1::ListJobsResponse page1;
  ASSERT_TRUE(stub_->ListJobs(Context().get(), request, &page1).ok());
  ASSERT_FALSE(page1.next_page_token().empty());
  request.set_page_token(page1.next_page_token());
  request.clear_states();
  request.add_states(v1::JOB_STATE_SUCCEEDED);
  v1::ListJobsResponse page2;
  grpc::Status status = stub_->ListJobs(Context().get(), request, &page2);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("page_token"), std::string::npos) << status.error_message();
}

TEST_F(JobServiceRpcTest, CancelEndsAQueuedJobWithTheReason) {
  v1::Job job = Submit(ValidSpec());
  v1::CancelJobRequest request;
  request.set_job_id(job.id());
  request.set_reason("wrong driver");
  v1::Job cancelled;
  ASSERT_TRUE(stub_->CancelJob(Context().get(), request, &cancelled).ok());
  EXPECT_EQ(cancelled.state(), v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(cancelled.error(), "wrong driver");
}

TEST_F(JobServiceRpcTest, CancellingAFinishedJobIsAFailedPrecondition) {
  v1::Job job = Submit(ValidSpec());
  v1::CancelJobRequest request;
  request.set_job_id(job.id());
  v1::Job cancelled;
  ASSERT_TRUE(stub_->CancelJob(Context().get(), request, &cancelled).ok());
  grpc::Status again = stub_->CancelJob(Context().get(), request, &cancelled);
  EXPECT_EQ(again.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << again.error_message();
}

TEST_F(JobServiceRpcTest, CancellingAnUnknownJobIsNotFound) {
  v1::CancelJobRequest request;
  request.set_job_id(5555555);
  v1::Job job;
  EXPECT_EQ(stub_->CancelJob(Context().get(), request, &job).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST_F(JobServiceRpcTest, SqlErrorsReachTheClientOnlyAsARequestId) {
  {
    // Break the schema under the running server: the store's next INSERT fails in PostgreSQL.
    pqxx::connection conn(url_);
    pqxx::work tx(conn);
    tx.exec("ALTER TABLE job RENAME COLUMN submitted_by TO submitted_by_hidden");
    tx.commit();
  }
  v1::SubmitJobRequest request;
  *request.mutable_spec() = ValidSpec();
  v1::Job job;
  grpc::Status status = stub_->SubmitJob(Context().get(), request, &job);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL);
  const std::string& message = status.error_message();
  EXPECT_EQ(message.find("submitted_by"), std::string::npos) << message;
  EXPECT_EQ(message.find("column"), std::string::npos) << message;
  EXPECT_EQ(message.find("INSERT"), std::string::npos) << message;
  EXPECT_NE(message.find("request id "), std::string::npos) << message;
}

}  // namespace
}  // namespace warpwatch::testing
