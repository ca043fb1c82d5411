// File: tests/worker/daemon/fake_worker_service.cc
#include "tests/worker/daemon/fake_worker_service.h"

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

#include <chrono>

namespace warpwatch::worker::testing {
namespace {

grpc::Status Unavailable() { return grpc::Status(grpc::StatusCode::UNAVAILABLE, "fake: down"); }

}  // namespace

FakeWorkerService::State FakeWorkerService::Get() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_;
}

void FakeWorkerService::Set(const std::function<void(State&)>& change) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    change(state_);
  }
  cv_.notify_all();
}

void FakeWorkerService::Enqueue(int64_t job_id, const v1::JobSpec& spec) {
  Set([&](State& s) {
    v1::Job job;
    job.set_id(job_id);
    *job.mutable_spec() = spec;
    job.set_state(v1::JOB_STATE_QUEUED);
    s.queue.push_back(job);
  });
}

grpc::Status FakeWorkerService::Register(grpc::ServerContext*, const v1::RegisterRequest* request,
                                         v1::RegisterResponse* response) {
  std::lock_guard<std::mutex> lock(mu_);
  if (state_.unavailable) return Unavailable();
  if (state_.register_failures > 0) {
    --state_.register_failures;
    return Unavailable();
  }
  state_.registers.push_back(*request);
  response->set_worker_id(request->worker_id().empty()
                              ? "w-" + std::to_string(state_.registers.size())
                              : request->worker_id());
  response->set_heartbeat_interval_seconds(state_.heartbeat_interval_seconds);
  response->set_lease_seconds(5);
  return grpc::Status::OK;
}

grpc::Status FakeWorkerService::Heartbeat(grpc::ServerContext*,
                                          const v1::HeartbeatRequest* request,
                                          v1::HeartbeatResponse* response) {
  std::lock_guard<std::mutex> lock(mu_);
  if (state_.unavailable) return Unavailable();
  if (state_.heartbeat_not_found > 0) {
    --state_.heartbeat_not_found;
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "fake: unknown worker");
  }
  state_.heartbeats.push_back(*request);
  for (int64_t id : request->running_run_ids()) {
    if (state_.cancel.count(id)) response->add_cancelled_run_ids(id);
    if (state_.lost.count(id)) response->add_lost_run_ids(id);
  }
  return grpc::Status::OK;
}

grpc::Status FakeWorkerService::AcquireJob(grpc::ServerContext* context,
                                           const v1::AcquireJobRequest* request,
                                           v1::AcquireJobResponse* response) {
  std::unique_lock<std::mutex> lock(mu_);
  auto until = std::chrono::steady_clock::now() +
               std::chrono::milliseconds(static_cast<int64_t>(request->wait_seconds() * 1000));
  while (true) {
    if (state_.unavailable) return Unavailable();
    if (context->IsCancelled()) return grpc::Status::CANCELLED;  // the worker is shutting down
    if (!state_.queue.empty()) break;
    if (cv_.wait_until(lock, std::min(until, std::chrono::steady_clock::now() +
                                                 std::chrono::milliseconds(20))) ==
            std::cv_status::timeout &&
        std::chrono::steady_clock::now() >= until) {
      return grpc::Status::OK;
    }
  }
  *response->mutable_job() = state_.queue.front();
  state_.queue.erase(state_.queue.begin());
  response->mutable_job()->set_state(v1::JOB_STATE_RUNNING);
  response->mutable_job()->set_lease_owner(request->worker_id());
  response->set_run_id(state_.next_run_id++);
  return grpc::Status::OK;
}

grpc::Status FakeWorkerService::ReportProgress(grpc::ServerContext*,
                                               const v1::ReportProgressRequest* request,
                                               v1::ReportProgressResponse* response) {
  std::lock_guard<std::mutex> lock(mu_);
  if (state_.unavailable) return Unavailable();
  state_.progress.push_back(*request);
  if (state_.lost.count(request->run_id())) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "fake: not your run");
  }
  response->set_cancel_requested(state_.cancel.count(request->run_id()) > 0);
  return grpc::Status::OK;
}

grpc::Status FakeWorkerService::UploadMeasurements(grpc::ServerContext*,
                                                   const v1::UploadMeasurementsRequest* request,
                                                   v1::UploadMeasurementsResponse* response) {
  std::lock_guard<std::mutex> lock(mu_);
  if (state_.unavailable) return Unavailable();
  if (state_.upload_code != grpc::StatusCode::OK) {
    if (state_.upload_code == grpc::StatusCode::RESOURCE_EXHAUSTED) ++state_.refused_batches;
    return grpc::Status(state_.upload_code, "fake: upload refused");
  }
  if (state_.max_batch > 0 && static_cast<size_t>(request->measurements_size()) > state_.max_batch) {
    ++state_.refused_batches;
    return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "fake: batch too large");
  }
  state_.uploads.push_back(*request);
  if (request->has_environment()) state_.environments[request->run_id()] = request->environment();
  for (const v1::Measurement& m : request->measurements()) {
    int& times = state_.stored[request->run_id()][m.case_().canonical()];
    if (times == 0) {
      response->set_inserted(response->inserted() + 1);
    } else {
      response->set_duplicates(response->duplicates() + 1);
    }
    ++times;
  }
  return grpc::Status::OK;
}

grpc::Status FakeWorkerService::FinishJob(grpc::ServerContext*, const v1::FinishJobRequest* request,
                                          v1::Job* response) {
  std::lock_guard<std::mutex> lock(mu_);
  if (state_.unavailable) return Unavailable();
  if (state_.lost.count(request->run_id())) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "fake: not your run");
  }
  state_.finishes.push_back(*request);
  response->set_id(request->job_id());
  return grpc::Status::OK;
}

FakeServer::FakeServer(FakeWorkerService* service) : service_(service) { Start(); }

FakeServer::~FakeServer() { Stop(); }

void FakeServer::Stop() {
  if (!server_) return;
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(100));
  server_.reset();
}

void FakeServer::Start() {
  grpc::ServerBuilder builder;
  int bound = 0;
  builder.AddListeningPort("127.0.0.1:" + std::to_string(port_),
                           grpc::InsecureServerCredentials(), &bound);
  builder.RegisterService(service_);
  server_ = builder.BuildAndStart();
  port_ = bound;
}

}  // namespace warpwatch::worker::testing
