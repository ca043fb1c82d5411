// File: tests/server/service/worker_jobs_rpc_test.cc
// WorkerService over real gRPC channels on a real PostgreSQL: idempotent uploads and their limits,
// finishing a job, and handing it back.
#include <gtest/gtest.h>

#include "tests/server/service/worker_service_rpc_fixture.h"

namespace warpwatch::testing {
namespace {

TEST_F(WorkerServiceRpcTest, UploadingTheSameBatchTwiceStoresItOnce) {
  StartServer();
  Held held = RegisterAndTakeAJob();
  const int64_t run = held.lease.run_id();
  std::vector<v1::Measurement> batch = {MakeMeasurement("reduce/warp_shuffle?n=1"),
                                        MakeMeasurement("reduce/warp_shuffle?n=2"),
                                        MakeMeasurement("reduce/warp_shuffle?n=3")};
  v1::UploadMeasurementsResponse first;
  ASSERT_TRUE(Upload(held.worker, run, batch, &first).ok());
  EXPECT_EQ(first.inserted(), 3);
  EXPECT_EQ(first.duplicates(), 0);
  v1::UploadMeasurementsResponse again;
  ASSERT_TRUE(Upload(held.worker, run, batch, &again).ok());
  EXPECT_EQ(again.inserted(), 0);
  EXPECT_EQ(again.duplicates(), 3);
  batch.push_back(MakeMeasurement("reduce/warp_shuffle?n=4"));
  v1::UploadMeasurementsResponse mixed;
  ASSERT_TRUE(Upload(held.worker, run, batch, &mixed).ok());
  EXPECT_EQ(mixed.inserted(), 1);
  EXPECT_EQ(mixed.duplicates(), 3);
  EXPECT_EQ(MeasurementRows(run), 4);
}

TEST_F(WorkerServiceRpcTest, OversizeBatchesAreResourceExhaustedNamingTheLimit) {
  server::ServerConfig config = TestConfig();
  config.max_upload_batch = 2;
  config.max_upload_bytes = 4096;
  StartServer(config);
  Held held = RegisterAndTakeAJob();
  const int64_t run = held.lease.run_id();
  v1::UploadMeasurementsResponse response;
  grpc::Status status =
      Upload(held.worker, run,
             {MakeMeasurement("a/b?n=1"), MakeMeasurement("a/b?n=2"), MakeMeasurement("a/b?n=3")},
             &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(status.error_message().find("--max-upload-batch 2"), std::string::npos)
      << status.error_message();

  v1::Measurement big = MakeMeasurement("a/b?n=4");
  for (int i = 0; i < 1000; ++i) big.add_samples_seconds(1e-3 * i);
  status = Upload(held.worker, run, {big}, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(status.error_message().find("--max-upload-bytes 4096"), std::string::npos)
      << status.error_message();
  EXPECT_EQ(MeasurementRows(run), 0);  // nothing of a refused batch is stored

  // Split, the same measurements go through.
  ASSERT_TRUE(
      Upload(held.worker, run, {MakeMeasurement("a/b?n=1"), MakeMeasurement("a/b?n=2")}, &response)
          .ok());
  EXPECT_EQ(response.inserted(), 2);
}

TEST_F(WorkerServiceRpcTest, UploadRefusesMeasurementsWithoutACaseAndBadRunIds) {
  StartServer();
  Held held = RegisterAndTakeAJob();
  v1::UploadMeasurementsResponse response;
  grpc::Status status = Upload(held.worker, held.lease.run_id(),
                               {MakeMeasurement("a/b?n=1"), MakeMeasurement("")}, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("measurements[1].case.canonical"), std::string::npos)
      << status.error_message();
  status = Upload(held.worker, 0, {MakeMeasurement("a/b?n=1")}, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("run_id"), std::string::npos);
  status = Upload(held.worker, held.lease.run_id() + 1000, {MakeMeasurement("a/b?n=1")}, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
}

// Which worker may act on a job is tested with two credentials in worker_identity_rpc_test.cc;
// which lease (run) an act applies to, in worker_runs_rpc_test.cc.
TEST_F(WorkerServiceRpcTest, FinishJobRefusesUnknownJobsAndUnspecifiedOutcomes) {
  StartServer();
  Held held = RegisterAndTakeAJob();
  const int64_t job = held.lease.job().id();
  const int64_t run = held.lease.run_id();
  v1::Job finished;
  grpc::Status status = Finish(held.worker, 999999, run, v1::JOB_OUTCOME_SUCCEEDED, &finished);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  status = Finish(held.worker, job, 0, v1::JOB_OUTCOME_SUCCEEDED, &finished);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("run_id"), std::string::npos);
  status = Finish(held.worker, job, run, v1::JOB_OUTCOME_UNSPECIFIED, &finished);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("outcome"), std::string::npos);

  // The holder may.
  ASSERT_TRUE(Finish(held.worker, job, run, v1::JOB_OUTCOME_SUCCEEDED, &finished).ok());
  EXPECT_EQ(finished.state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(GetJob(job).state(), v1::JOB_STATE_SUCCEEDED);
}

TEST_F(WorkerServiceRpcTest, FinishJobFailedKeepsTheWorkersReason) {
  StartServer();
  Held held = RegisterAndTakeAJob();
  v1::Job finished;
  ASSERT_TRUE(Finish(held.worker, held.lease.job().id(), held.lease.run_id(),
                     v1::JOB_OUTCOME_FAILED, &finished, "child crashed 3 times")
                  .ok());
  EXPECT_EQ(finished.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(finished.error(), "child crashed 3 times");
}

TEST_F(WorkerServiceRpcTest, ReleasedJobsGoBackToTheQueueForAnotherWorker) {
  StartServer();
  Held held = RegisterAndTakeAJob();
  const std::string other = Register("node-2", {MakeGpu("GPU-2", "NVIDIA H100")}).worker_id();
  v1::Job released;
  ASSERT_TRUE(Finish(held.worker, held.lease.job().id(), held.lease.run_id(),
                     v1::JOB_OUTCOME_RELEASED, &released)
                  .ok());
  EXPECT_EQ(released.state(), v1::JOB_STATE_QUEUED);
  v1::AcquireJobResponse again = Acquire(other, "GPU-2", 2);
  ASSERT_TRUE(again.has_job());
  EXPECT_EQ(again.job().id(), held.lease.job().id());
  EXPECT_EQ(again.job().attempts(), 1);  // a release does not count as an attempt
}

TEST_F(WorkerServiceRpcTest, AWorkerLoopingClaimAndReleaseCannotKeepAJobFromTheOthers) {
  StartServer();
  Held held = RegisterAndTakeAJob();
  const std::string other = Register("node-2", {MakeGpu("GPU-2", "NVIDIA H100")}).worker_id();
  v1::Job released;
  ASSERT_TRUE(Finish(held.worker, held.lease.job().id(), held.lease.run_id(),
                     v1::JOB_OUTCOME_RELEASED, &released)
                  .ok());
  // The releasing worker polls again at once: the job is not handed back to it...
  const v1::AcquireJobResponse looped = Acquire(held.worker, "GPU-1", 0);
  EXPECT_FALSE(looped.has_job()) << "job " << looped.job().id();
  // ... and the other worker takes it.
  const v1::AcquireJobResponse taken = Acquire(other, "GPU-2", 2);
  ASSERT_TRUE(taken.has_job());
  EXPECT_EQ(taken.job().id(), held.lease.job().id());
}

}  // namespace
}  // namespace warpwatch::testing
