// File: bench/detail/sim_worker.cc
#include "bench/detail/sim_worker.h"

#include <unistd.h>

namespace warpwatch::bench {
namespace {

Status FromGrpc(const grpc::Status& s, const std::string& what) {
  if (s.ok()) return OkStatus();
  return Status(static_cast<StatusCode>(static_cast<int>(s.error_code())),
                what + ": " + s.error_message());
}

void Deadline(grpc::ClientContext& context, double seconds) {
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000)));
}

}  // namespace

SimWorker::SimWorker(const ServerUnderTest& server, int index)
    : token_(server.worker_token(index)),
      device_uuid_("GPU-bench-" + std::to_string(index)),
      stub_(v1::WorkerService::NewStub(server.NewChannel())) {}

Status SimWorker::Register() {
  grpc::ClientContext context;
  ServerUnderTest::Authorize(context, token_);
  Deadline(context, 30);
  v1::RegisterRequest request;
  request.set_hostname("bench-host-" + device_uuid_);
  request.set_version("bench");
  v1::Device* d = request.add_devices();
  d->set_uuid(device_uuid_);
  d->set_name("NVIDIA H100 80GB HBM3");
  d->set_compute_capability_major(9);
  d->set_compute_capability_minor(0);
  d->set_sm_count(132);
  d->set_memory_bytes(int64_t{80} << 30);
  d->set_l2_bytes(int64_t{50} << 20);
  d->set_memory_bus_width_bits(5120);
  d->set_memory_clock_khz(2619000);
  d->set_theoretical_bandwidth_bytes_per_second(3.35e12);
  d->set_max_sm_clock_mhz(1980);
  v1::RegisterResponse response;
  RETURN_IF_ERROR(FromGrpc(stub_->Register(&context, request, &response), "Register"));
  worker_id_ = response.worker_id();
  return OkStatus();
}

Status SimWorker::Acquire(double wait_seconds) {
  grpc::ClientContext context;
  ServerUnderTest::Authorize(context, token_);
  Deadline(context, wait_seconds + 10);
  v1::AcquireJobRequest request;
  request.set_worker_id(worker_id_);
  request.set_device_uuid(device_uuid_);
  request.set_wait_seconds(wait_seconds);
  v1::AcquireJobResponse response;
  RETURN_IF_ERROR(FromGrpc(stub_->AcquireJob(&context, request, &response), "AcquireJob"));
  job_id_ = response.has_job() ? response.job().id() : 0;
  run_id_ = response.run_id();
  environment_sent_ = false;
  return OkStatus();
}

Status SimWorker::Upload(const std::vector<v1::Measurement>& batch) {
  grpc::ClientContext context;
  ServerUnderTest::Authorize(context, token_);
  Deadline(context, 60);
  v1::UploadMeasurementsRequest request;
  request.set_worker_id(worker_id_);
  request.set_run_id(run_id_);
  if (!environment_sent_) {
    request.mutable_environment()->set_hostname("bench-host-" + device_uuid_);
    request.mutable_environment()->mutable_device()->set_uuid(device_uuid_);
    request.mutable_environment()->mutable_device()->set_name("NVIDIA H100 80GB HBM3");
  }
  for (const v1::Measurement& m : batch) *request.add_measurements() = m;
  v1::UploadMeasurementsResponse response;
  RETURN_IF_ERROR(
      FromGrpc(stub_->UploadMeasurements(&context, request, &response), "UploadMeasurements"));
  environment_sent_ = true;
  if (response.inserted() != static_cast<int>(batch.size())) {
    return InternalError("UploadMeasurements stored " + std::to_string(response.inserted()) +
                         " of " + std::to_string(batch.size()));
  }
  return OkStatus();
}

Status SimWorker::Finish(v1::JobOutcome outcome) {
  grpc::ClientContext context;
  ServerUnderTest::Authorize(context, token_);
  Deadline(context, 30);
  v1::FinishJobRequest request;
  request.set_worker_id(worker_id_);
  request.set_job_id(job_id_);
  request.set_run_id(run_id_);
  request.set_outcome(outcome);
  if (outcome == v1::JOB_OUTCOME_FAILED) request.set_error("bench: not run");
  v1::Job job;
  return FromGrpc(stub_->FinishJob(&context, request, &job), "FinishJob");
}

}  // namespace warpwatch::bench
