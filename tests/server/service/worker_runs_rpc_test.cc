// File: tests/server/service/worker_runs_rpc_test.cc
// A lease belongs to a run, not to a (job, worker) pair: over real gRPC channels on a real
// PostgreSQL, a run that lost its lease cannot extend, report on, upload to or finish the job's
// next run, even when that run is on another GPU of the same worker.
#include <gtest/gtest.h>

#include "tests/server/service/worker_service_rpc_fixture.h"

namespace warpwatch::testing {
namespace {

TEST_F(WorkerServiceRpcTest, ARunCutOffPastItsLeaseCannotTouchTheRunThatReplacedIt) {
  server::ServerConfig config = TestConfig();
  config.lease_seconds = 1;
  config.reaper_interval_seconds = 0.1;
  StartServer(config);
  // One worker, two GPUs: GPU-1 takes the job as run R1 and uploads part of it.
  const std::string worker =
      Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100", 0), MakeGpu("GPU-2", "NVIDIA H100", 1)})
          .worker_id();
  const v1::Job job = Submit();
  const v1::AcquireJobResponse r1 = Acquire(worker, "GPU-1", 0);
  ASSERT_TRUE(r1.has_job());
  v1::UploadMeasurementsResponse uploaded;
  ASSERT_TRUE(Upload(worker, r1.run_id(),
                     {MakeMeasurement("reduce/warp_shuffle?n=1"),
                      MakeMeasurement("reduce/warp_shuffle?n=2")},
                     &uploaded)
                  .ok());
  // GPU-1 is cut off past its lease: the job is requeued, and the worker's other GPU claims it
  // as run R2.
  const v1::AcquireJobResponse r2 = Acquire(worker, "GPU-2", 8);
  ASSERT_TRUE(r2.has_job());
  ASSERT_EQ(r2.job().id(), job.id());
  ASSERT_NE(r2.run_id(), r1.run_id());

  // GPU-1 comes back and heartbeats R1: R1 is lost, and R2's lease is not extended by it.
  v1::HeartbeatResponse beat;
  ASSERT_TRUE(Heartbeat(worker, {r1.run_id()}, &beat).ok());
  EXPECT_EQ(std::vector<int64_t>(beat.lost_run_ids().begin(), beat.lost_run_ids().end()),
            std::vector<int64_t>{r1.run_id()});
  EXPECT_EQ(GetJob(job.id()).lease_expiry().SerializeAsString(),
            r2.lease_expiry().SerializeAsString());
  // Nor may R1 report progress, upload, or finish the job.
  EXPECT_EQ(Progress(worker, job.id(), r1.run_id(), 9).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Upload(worker, r1.run_id(), {MakeMeasurement("reduce/warp_shuffle?n=3")}, &uploaded)
                .error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  v1::Job finished;
  EXPECT_EQ(
      Finish(worker, job.id(), r1.run_id(), v1::JOB_OUTCOME_SUCCEEDED, &finished).error_code(),
      grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(MeasurementRows(r1.run_id()), 2);  // the refused upload stored nothing
  const v1::Job now = GetJob(job.id());
  EXPECT_EQ(now.state(), v1::JOB_STATE_RUNNING);
  EXPECT_EQ(now.points_done(), 0);

  // R2, the job's lease, is unaffected and finishes the job.
  ASSERT_TRUE(Heartbeat(worker, {r2.run_id()}, &beat).ok());
  ASSERT_TRUE(beat.lost_run_ids().empty());
  ASSERT_TRUE(Finish(worker, job.id(), r2.run_id(), v1::JOB_OUTCOME_SUCCEEDED, &finished).ok());
  EXPECT_EQ(finished.state(), v1::JOB_STATE_SUCCEEDED);
}

TEST_F(WorkerServiceRpcTest, AJobHandedBackAfterACancelRequestEndsCancelled) {
  StartServer();
  Held held = RegisterAndTakeAJob();
  const int64_t job = held.lease.job().id();
  v1::CancelJobRequest cancel;
  cancel.set_job_id(job);
  cancel.set_reason("not tonight");
  v1::Job cancelled;
  ASSERT_TRUE(JobStub()->CancelJob(Context().get(), cancel, &cancelled).ok());
  ASSERT_TRUE(cancelled.cancel_requested());
  // The worker shuts down before it heard of the cancel, and hands the job back.
  v1::Job released;
  ASSERT_TRUE(
      Finish(held.worker, job, held.lease.run_id(), v1::JOB_OUTCOME_RELEASED, &released).ok());
  EXPECT_EQ(released.state(), v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(GetJob(job).state(), v1::JOB_STATE_CANCELLED);
  // Nobody runs it again.
  const std::string other = Register("node-2", {MakeGpu("GPU-2", "NVIDIA H100")}).worker_id();
  EXPECT_FALSE(Acquire(other, "GPU-2", 0.5).has_job());
}

}  // namespace
}  // namespace warpwatch::testing
