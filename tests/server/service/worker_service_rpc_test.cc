// File: tests/server/service/worker_service_rpc_test.cc
// WorkerService over real gRPC channels to an in-process server on a real PostgreSQL: register,
// the AcquireJob long-poll, selectors, heartbeats and cancels (uploads and finishing are in
// worker_jobs_rpc_test.cc).
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <future>
#include <pqxx/pqxx>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/service/worker_service_rpc_fixture.h"

namespace warpwatch::testing {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

TEST_F(WorkerServiceRpcTest, RegisterAnswersAnIdTheHeartbeatIntervalAndTheLease) {
  server::ServerConfig config = TestConfig();
  config.lease_seconds = 30;
  StartServer(config);
  v1::RegisterResponse first = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")});
  EXPECT_FALSE(first.worker_id().empty());
  EXPECT_DOUBLE_EQ(first.lease_seconds(), 30);
  EXPECT_DOUBLE_EQ(first.heartbeat_interval_seconds(), 10);  // a third of the lease by default

  // Re-registering with the previous id keeps it.
  v1::RegisterRequest again;
  again.set_worker_id(first.worker_id());
  again.set_hostname("node-1");
  *again.add_devices() = MakeGpu("GPU-1", "NVIDIA H100");
  v1::RegisterResponse second;
  ASSERT_TRUE(WorkerStub()->Register(Context().get(), again, &second).ok());
  EXPECT_EQ(second.worker_id(), first.worker_id());
}

TEST_F(WorkerServiceRpcTest, RegisterRefusesRequestsNamingTheField) {
  StartServer();
  v1::RegisterRequest request;
  v1::RegisterResponse response;
  grpc::Status status = WorkerStub()->Register(Context().get(), request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("hostname"), std::string::npos) << status.error_message();

  request.set_hostname("node-1");
  *request.add_devices() = MakeGpu("GPU-1", "NVIDIA H100");
  *request.add_devices() = MakeGpu("", "NVIDIA H100");
  status = WorkerStub()->Register(Context().get(), request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("devices[1].uuid"), std::string::npos)
      << status.error_message();
}

// The edge's bounds on a worker's lists and names (issue 23), over a real channel: a heartbeat
// naming more runs than any worker could run, a device name longer than a name can be.
TEST_F(WorkerServiceRpcTest, OverlongListsAndNamesAreRefusedAtTheEdgeNamingTheLimit) {
  StartServer();
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  std::vector<int64_t> runs;
  for (int64_t id = 1; id <= 257; ++id) runs.push_back(id);
  v1::HeartbeatResponse beat;
  grpc::Status status = Heartbeat(worker, runs, &beat);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
  EXPECT_NE(status.error_message().find("more than the limit of 256"), std::string::npos)
      << status.error_message();
  runs.pop_back();
  status = Heartbeat(worker, runs, &beat);
  EXPECT_TRUE(status.ok()) << status.error_message();

  v1::RegisterRequest request;
  request.set_hostname("node-2");
  *request.add_devices() = MakeGpu("GPU-2", std::string(257, 'x'));
  v1::RegisterResponse response;
  status = WorkerStub()->Register(Context().get(), request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_NE(status.error_message().find("devices[0].name"), std::string::npos)
      << status.error_message();
}

// The poll asks to wait a minute, so answering with the job well within that minute is the wake-up
// (PostgreSQL's NOTIFY through the store's job notifier) and not the end of the wait; the deadline
// for it is generous, as a loaded 2-core machine under sanitizers can take seconds (on a quiet one
// it is milliseconds: the test prints it). The poll gets a head start to be parked by the submit;
// on a machine too loaded for that, it claims the job as it arrives, which passes too.
TEST_F(WorkerServiceRpcTest, AcquireJobReturnsAJobSubmittedDuringThePollLongBeforeItsWaitEnds) {
  StartServer();
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  constexpr double kWaitSeconds = 60;
  auto poll = std::async(std::launch::async, [&] {
    v1::AcquireJobRequest request;
    request.set_worker_id(worker);
    request.set_device_uuid("GPU-1");
    request.set_wait_seconds(kWaitSeconds);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(90));
    v1::AcquireJobResponse response;
    const grpc::Status status = WorkerStub()->AcquireJob(&context, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return std::make_pair(response, Clock::now());
  });
  std::this_thread::sleep_for(milliseconds(700));  // a head start: see above
  const v1::Job job = Submit();
  const Clock::time_point submitted = Clock::now();
  ASSERT_EQ(poll.wait_for(std::chrono::seconds(30)), std::future_status::ready)
      << "the poll was not woken by the submit";
  auto [response, returned] = poll.get();
  ASSERT_TRUE(response.has_job());
  EXPECT_EQ(response.job().id(), job.id());
  EXPECT_EQ(response.job().state(), v1::JOB_STATE_RUNNING);
  EXPECT_EQ(response.job().lease_owner(), worker);
  EXPECT_GT(response.run_id(), 0);
  EXPECT_TRUE(response.has_lease_expiry());
  const double latency = std::chrono::duration<double>(returned - submitted).count();
  std::printf("AcquireJob returned %.1f ms after SubmitJob returned\n", latency * 1000);
}

TEST_F(WorkerServiceRpcTest, AcquireJobWithNothingQueuedReturnsEmptyAfterTheWait) {
  StartServer();
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  const Clock::time_point start = Clock::now();
  v1::AcquireJobResponse response = Acquire(worker, "GPU-1", 0.6);
  const double took = SecondsSince(start);
  EXPECT_FALSE(response.has_job());
  EXPECT_EQ(response.run_id(), 0);
  EXPECT_GE(took, 0.55);
  EXPECT_LT(took, 3.0);
}

TEST_F(WorkerServiceRpcTest, AcquireJobEndsBeforeTheCallDeadline) {
  StartServer();
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  v1::AcquireJobRequest request;
  request.set_worker_id(worker);
  request.set_device_uuid("GPU-1");
  request.set_wait_seconds(30);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(1500));
  v1::AcquireJobResponse response;
  const Clock::time_point start = Clock::now();
  grpc::Status status = WorkerStub()->AcquireJob(&context, request, &response);
  EXPECT_TRUE(status.ok()) << status.error_code() << " " << status.error_message();
  EXPECT_FALSE(response.has_job());
  EXPECT_LT(SecondsSince(start), 1.5);
}

TEST_F(WorkerServiceRpcTest, AcquireJobIsCappedByTheServerMaximumWait) {
  server::ServerConfig config = TestConfig();
  config.acquire_max_wait_seconds = 0.5;
  StartServer(config);
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  const Clock::time_point start = Clock::now();
  EXPECT_FALSE(Acquire(worker, "GPU-1", 8).has_job());
  EXPECT_LT(SecondsSince(start), 3.0);
}

TEST_F(WorkerServiceRpcTest, AcquireJobEndsPromptlyWhenTheServerShutsDown) {
  StartServer();
  const std::string worker = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  auto poll = std::async(std::launch::async, [&] {
    grpc::Status status;
    v1::AcquireJobResponse response = Acquire(worker, "GPU-1", 8, &status);
    return std::make_pair(status, response.has_job());
  });
  std::this_thread::sleep_for(milliseconds(500));
  const Clock::time_point start = Clock::now();
  runtime_->Shutdown(std::chrono::milliseconds(5000));
  const double shutdown_took = SecondsSince(start);
  ASSERT_EQ(poll.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  auto [status, has_job] = poll.get();
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_FALSE(has_job);
  EXPECT_LT(shutdown_took, 2.0);  // the poll did not hold the shutdown for its grace
}

TEST_F(WorkerServiceRpcTest, AcquireJobHandsOutOnlyJobsWhoseSelectorMatchesTheGpu) {
  StartServer();
  const std::string a100 =
      Register("node-a", {MakeGpu("GPU-A", "NVIDIA A100-SXM4-80GB")}, {{"rack", "r1"}}).worker_id();
  const std::string h100 =
      Register("node-h", {MakeGpu("GPU-H", "NVIDIA H100 80GB HBM3")}, {{"rack", "r2"}}).worker_id();
  const v1::Job for_h100 =
      Submit([](v1::JobSpec& s) { s.mutable_selector()->set_gpu_model("*H100*"); });
  EXPECT_FALSE(Acquire(a100, "GPU-A", 0).has_job());
  v1::AcquireJobResponse got = Acquire(h100, "GPU-H", 0);
  ASSERT_TRUE(got.has_job());
  EXPECT_EQ(got.job().id(), for_h100.id());

  const v1::Job for_r1 = Submit(
      [](v1::JobSpec& s) { (*s.mutable_selector()->mutable_worker_labels())["rack"] = "r1"; });
  const v1::Job for_uuid =
      Submit([](v1::JobSpec& s) { s.mutable_selector()->set_gpu_uuid("GPU-A"); });
  // GPU-H is busy anyway in real life; here it simply must not match either job.
  EXPECT_FALSE(Acquire(h100, "GPU-H", 0).has_job());
  std::set<int64_t> got_ids;
  for (int i = 0; i < 2; ++i) {
    v1::AcquireJobResponse r = Acquire(a100, "GPU-A", 0);
    ASSERT_TRUE(r.has_job());
    got_ids.insert(r.job().id());
  }
  EXPECT_EQ(got_ids, (std::set<int64_t>{for_r1.id(), for_uuid.id()}));
}

TEST_F(WorkerServiceRpcTest, AcquireJobRefusesUnknownWorkersAndForeignGpus) {
  StartServer();
  const std::string w1 = Register("node-1", {MakeGpu("GPU-1", "NVIDIA H100")}).worker_id();
  Register("node-2", {MakeGpu("GPU-2", "NVIDIA H100")});
  grpc::Status status;
  Acquire("no-such-worker", "GPU-1", 0, &status);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  Acquire(w1, "GPU-2", 0, &status);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  Acquire(w1, "", 0, &status);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("device_uuid"), std::string::npos);
  Acquire(w1, "GPU-1", -1, &status);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("wait_seconds"), std::string::npos);
}

TEST_F(WorkerServiceRpcTest, HeartbeatExtendsTheLeaseAndReportsCancelsFromJobService) {
  StartServer();
  Held held = RegisterAndTakeAJob();
  const int64_t job = held.lease.job().id();
  const int64_t run = held.lease.run_id();
  v1::HeartbeatResponse beat;
  ASSERT_TRUE(Heartbeat(held.worker, {run}, &beat).ok());
  EXPECT_TRUE(beat.cancelled_run_ids().empty());
  EXPECT_TRUE(beat.lost_run_ids().empty());
  EXPECT_GE(beat.lease_expiry().seconds(), held.lease.lease_expiry().seconds());

  v1::CancelJobRequest cancel;
  cancel.set_job_id(job);
  cancel.set_reason("wrong driver");
  v1::Job cancelled;
  ASSERT_TRUE(JobStub()->CancelJob(Context().get(), cancel, &cancelled).ok());
  EXPECT_EQ(cancelled.state(), v1::JOB_STATE_RUNNING);
  EXPECT_TRUE(cancelled.cancel_requested());

  ASSERT_TRUE(Heartbeat(held.worker, {run}, &beat).ok());
  EXPECT_EQ(std::vector<int64_t>(beat.cancelled_run_ids().begin(), beat.cancelled_run_ids().end()),
            std::vector<int64_t>{run});
  v1::ReportProgressRequest progress;
  progress.set_worker_id(held.worker);
  progress.set_job_id(job);
  progress.set_run_id(run);
  progress.set_points_done(2);
  progress.set_points_total(8);
  v1::ReportProgressResponse progress_response;
  ASSERT_TRUE(WorkerStub()->ReportProgress(Context().get(), progress, &progress_response).ok());
  EXPECT_TRUE(progress_response.cancel_requested());

  // The two points reported done were stored before the worker stopped.
  v1::UploadMeasurementsResponse uploaded;
  ASSERT_TRUE(Upload(held.worker, run,
                     {MakeMeasurement("reduce/warp_shuffle?n=1"),
                      MakeMeasurement("reduce/warp_shuffle?n=2")},
                     &uploaded)
                  .ok());

  v1::Job finished;
  ASSERT_TRUE(Finish(held.worker, job, run, v1::JOB_OUTCOME_CANCELLED, &finished).ok());
  EXPECT_EQ(finished.state(), v1::JOB_STATE_CANCELLED);
  // The points stored before the cancel stay counted (a finished job counts its run's points).
  EXPECT_EQ(finished.points_done(), 2);
}

TEST_F(WorkerServiceRpcTest, WorkerSuppliedTextIsEscapedInTheLogSoItCannotForgeLines) {
  StartServer();
  std::ostringstream captured;
  auto previous = spdlog::default_logger();
  auto capture = std::make_shared<spdlog::logger>(
      "capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(captured));
  capture->set_pattern("%v");
  capture->set_level(spdlog::level::info);
  spdlog::set_default_logger(capture);
  const std::string forged = "node-1\rts=2026-01-01T00:00:00Z level=error msg=\"forged\"";
  v1::RegisterRequest request;
  request.set_hostname(forged);
  request.set_version("1.0\n\x1b[31mred");
  *request.add_devices() = MakeGpu("GPU-1", "NVIDIA H100");
  v1::RegisterResponse response;
  grpc::Status status = WorkerStub()->Register(Context().get(), request, &response);
  spdlog::set_default_logger(previous);
  ASSERT_TRUE(status.ok()) << status.error_message();
  const std::string log = captured.str();
  ASSERT_NE(log.find("worker registered"), std::string::npos) << log;
  EXPECT_EQ(log.find('\r'), std::string::npos) << log;
  EXPECT_EQ(log.find('\x1b'), std::string::npos) << log;
  EXPECT_NE(
      log.find("hostname=\"node-1\\rts=2026-01-01T00:00:00Z level=error msg=\\\"forged\\\"\""),
      std::string::npos)
      << log;
  EXPECT_NE(log.find("version=\"1.0\\n\\x1b[31mred\""), std::string::npos) << log;
  // Every line is one event of ours: the registration's text started none.
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_EQ(line.rfind("msg=", 0), 0u) << "forged line: " << line;
  }
}

TEST_F(WorkerServiceRpcTest, HeartbeatOfAnUnknownWorkerIsNotFound) {
  StartServer();
  v1::HeartbeatResponse beat;
  EXPECT_EQ(Heartbeat("no-such-worker", {}, &beat).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Heartbeat("", {}, &beat).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(WorkerServiceRpcTest, WatchJobStreamsProgressAsReportProgressArrives) {
  StartServer();
  Held held = RegisterAndTakeAJob();
  const int64_t job = held.lease.job().id();
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  v1::GetJobRequest watch;
  watch.set_job_id(job);
  auto stream = JobStub()->WatchJob(&context, watch);
  v1::JobEvent event;
  ASSERT_TRUE(stream->Read(&event));
  EXPECT_EQ(event.job().state(), v1::JOB_STATE_RUNNING);

  v1::ReportProgressRequest progress;
  progress.set_worker_id(held.worker);
  progress.set_job_id(job);
  progress.set_run_id(held.lease.run_id());
  progress.set_points_done(3);
  progress.set_points_total(12);
  progress.set_current_case("reduce/warp_shuffle?n=1024");
  v1::ReportProgressResponse progress_response;
  ASSERT_TRUE(WorkerStub()->ReportProgress(Context().get(), progress, &progress_response).ok());
  EXPECT_FALSE(progress_response.cancel_requested());
  bool saw_progress = false;
  while (!saw_progress && stream->Read(&event)) {
    saw_progress = event.job().points_done() == 3 && event.job().points_total() == 12 &&
                   event.job().current_case() == "reduce/warp_shuffle?n=1024";
  }
  EXPECT_TRUE(saw_progress);

  v1::Job finished;
  ASSERT_TRUE(
      Finish(held.worker, job, held.lease.run_id(), v1::JOB_OUTCOME_SUCCEEDED, &finished).ok());
  v1::JobState last = v1::JOB_STATE_UNSPECIFIED;
  while (stream->Read(&event)) last = event.job().state();
  EXPECT_EQ(last, v1::JOB_STATE_SUCCEEDED);
  EXPECT_TRUE(stream->Finish().ok());
}

}  // namespace
}  // namespace warpwatch::testing
