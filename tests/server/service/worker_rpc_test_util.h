// File: tests/server/service/worker_rpc_test_util.h
// RPC fixture for WorkerService and FleetService tests: stubs, and helpers that register workers,
// submit jobs and build measurements through the real in-process server.
#ifndef WARPWATCH_TESTS_SERVER_SERVICE_WORKER_RPC_TEST_UTIL_H_
#define WARPWATCH_TESTS_SERVER_SERVICE_WORKER_RPC_TEST_UTIL_H_

#include <grpcpp/client_context.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/server/runtime/rpc_test_fixture.h"
#include "warpwatch/v1/fleet.grpc.pb.h"
#include "warpwatch/v1/worker.grpc.pb.h"

namespace warpwatch::testing {

inline v1::Device MakeGpu(const std::string& uuid, const std::string& name, int index = 0) {
  v1::Device device;
  device.set_uuid(uuid);
  device.set_name(name);
  device.set_index(index);
  device.set_sm_count(132);
  return device;
}

// A measurement of case `canonical` (family reduce, variant warp_shuffle) with a few samples.
inline v1::Measurement MakeMeasurement(const std::string& canonical) {
  v1::Measurement m;
  m.mutable_case_()->set_family("reduce");
  m.mutable_case_()->set_variant("warp_shuffle");
  m.mutable_case_()->set_canonical(canonical);
  return m;
}

class WorkerRpcTest : public RpcTest {
 protected:
  std::unique_ptr<v1::WorkerService::Stub> WorkerStub() const {
    return v1::WorkerService::NewStub(Channel());
  }
  std::unique_ptr<v1::FleetService::Stub> FleetStub() const {
    return v1::FleetService::NewStub(Channel());
  }

  // Registers a worker on `hostname` owning `gpus`; returns the response (asserts OK).
  v1::RegisterResponse Register(const std::string& hostname, const std::vector<v1::Device>& gpus,
                                const std::map<std::string, std::string>& labels = {},
                                const std::string& token = "") {
    const std::string& use = token.empty() ? token_ : token;
    v1::RegisterRequest request;
    request.set_hostname(hostname);
    request.set_version("test-1");
    request.add_families("reduce");
    for (const v1::Device& gpu : gpus) *request.add_devices() = gpu;
    request.mutable_labels()->insert(labels.begin(), labels.end());
    v1::RegisterResponse response;
    grpc::Status status = WorkerStub()->Register(Context(use).get(), request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }

  // Submits ValidSpec() with `edit` applied; returns the job (asserts OK).
  template <typename Edit>
  v1::Job Submit(Edit edit) {
    v1::SubmitJobRequest request;
    *request.mutable_spec() = ValidSpec();
    edit(*request.mutable_spec());
    v1::Job job;
    grpc::Status status = JobStub()->SubmitJob(Context(user_token_).get(), request, &job);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return job;
  }
  v1::Job Submit() {
    return Submit([](v1::JobSpec&) {});
  }

  // AcquireJob for (worker, gpu) waiting up to `wait_seconds`; `status` receives the call's.
  v1::AcquireJobResponse Acquire(const std::string& worker, const std::string& gpu,
                                 double wait_seconds, grpc::Status* status = nullptr) {
    v1::AcquireJobRequest request;
    request.set_worker_id(worker);
    request.set_device_uuid(gpu);
    request.set_wait_seconds(wait_seconds);
    v1::AcquireJobResponse response;
    grpc::Status s = WorkerStub()->AcquireJob(Context(token_).get(), request, &response);
    if (status != nullptr) {
      *status = s;
    } else {
      EXPECT_TRUE(s.ok()) << s.error_message();
    }
    return response;
  }

  // ReportProgress of `job` through its run `run`; `response` may be null.
  grpc::Status Progress(const std::string& worker, int64_t job, int64_t run, int64_t done,
                        v1::ReportProgressResponse* response = nullptr) {
    v1::ReportProgressRequest request;
    request.set_worker_id(worker);
    request.set_job_id(job);
    request.set_run_id(run);
    request.set_points_done(done);
    v1::ReportProgressResponse ignored;
    return WorkerStub()->ReportProgress(Context(token_).get(), request,
                                        response ? response : &ignored);
  }

  v1::Job GetJob(int64_t id) {
    v1::GetJobRequest request;
    request.set_job_id(id);
    v1::Job job;
    grpc::Status status = JobStub()->GetJob(Context(user_token_).get(), request, &job);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return job;
  }

  // Heartbeat of `worker` extending the leases of `runs`.
  grpc::Status Heartbeat(const std::string& worker, const std::vector<int64_t>& runs,
                         v1::HeartbeatResponse* response) {
    v1::HeartbeatRequest request;
    request.set_worker_id(worker);
    for (int64_t id : runs) request.add_running_run_ids(id);
    return WorkerStub()->Heartbeat(Context(token_).get(), request, response);
  }

  // FinishJob of `job` through its run `run`.
  grpc::Status Finish(const std::string& worker, int64_t job, int64_t run, v1::JobOutcome outcome,
                      v1::Job* response, const std::string& error = "") {
    v1::FinishJobRequest request;
    request.set_worker_id(worker);
    request.set_job_id(job);
    request.set_run_id(run);
    request.set_outcome(outcome);
    request.set_error(error);
    return WorkerStub()->FinishJob(Context(token_).get(), request, response);
  }

  grpc::Status Upload(const std::string& worker, int64_t run,
                      const std::vector<v1::Measurement>& measurements,
                      v1::UploadMeasurementsResponse* response) {
    v1::UploadMeasurementsRequest request;
    request.set_worker_id(worker);
    request.set_run_id(run);
    for (const v1::Measurement& m : measurements) *request.add_measurements() = m;
    return WorkerStub()->UploadMeasurements(Context(token_).get(), request, response);
  }

  // Bearer tokens the helpers send (none on an open server): token_ on WorkerService calls,
  // user_token_ on JobService calls.
  std::string token_;
  std::string user_token_;
};

}  // namespace warpwatch::testing

#endif  // WARPWATCH_TESTS_SERVER_SERVICE_WORKER_RPC_TEST_UTIL_H_
