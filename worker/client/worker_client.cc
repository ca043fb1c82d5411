// File: worker/client/worker_client.cc
#include "worker/client/worker_client.h"

#include <chrono>
#include <string>
#include <utility>

namespace warpwatch::worker {

Status FromGrpcStatus(const grpc::Status& status) {
  if (status.ok()) return OkStatus();
  return Status(static_cast<StatusCode>(static_cast<int>(status.error_code())),
                status.error_message());
}

WorkerClient::WorkerClient(std::shared_ptr<grpc::Channel> channel, ClientOptions options)
    : stub_(v1::WorkerService::NewStub(std::move(channel))), options_(std::move(options)) {}

void WorkerClient::Prepare(grpc::ClientContext* context, double seconds) const {
  if (!options_.token.empty()) context->AddMetadata("authorization", "Bearer " + options_.token);
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6)));
}

namespace {

// One unary call: `invoke(context, response)` returns the grpc::Status.
template <typename Response, typename Invoke>
StatusOr<Response> Call(grpc::ClientContext* context, Invoke invoke) {
  Response response;
  grpc::Status status = invoke(context, &response);
  if (!status.ok()) return FromGrpcStatus(status);
  return response;
}

}  // namespace

StatusOr<v1::RegisterResponse> WorkerClient::Register(const v1::RegisterRequest& request) {
  grpc::ClientContext context;
  Prepare(&context, options_.call_timeout_seconds);
  return Call<v1::RegisterResponse>(&context, [&](auto* c, auto* r) {
    return stub_->Register(c, request, r);
  });
}

StatusOr<v1::HeartbeatResponse> WorkerClient::Heartbeat(const v1::HeartbeatRequest& request) {
  grpc::ClientContext context;
  Prepare(&context, options_.call_timeout_seconds);
  return Call<v1::HeartbeatResponse>(&context, [&](auto* c, auto* r) {
    return stub_->Heartbeat(c, request, r);
  });
}

StatusOr<v1::AcquireJobResponse> WorkerClient::AcquireJob(const v1::AcquireJobRequest& request) {
  grpc::ClientContext context;
  Prepare(&context, request.wait_seconds() + options_.acquire_extra_seconds);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (long_polls_cancelled_) return Status(StatusCode::kCancelled, "worker is shutting down");
    long_polls_.insert(&context);
  }
  StatusOr<v1::AcquireJobResponse> result = Call<v1::AcquireJobResponse>(
      &context, [&](auto* c, auto* r) { return stub_->AcquireJob(c, request, r); });
  std::lock_guard<std::mutex> lock(mu_);
  long_polls_.erase(&context);
  if (long_polls_cancelled_ && !result.ok()) {
    return Status(StatusCode::kCancelled, "worker is shutting down");
  }
  return result;
}

StatusOr<v1::ReportProgressResponse> WorkerClient::ReportProgress(
    const v1::ReportProgressRequest& request) {
  grpc::ClientContext context;
  Prepare(&context, options_.call_timeout_seconds);
  return Call<v1::ReportProgressResponse>(&context, [&](auto* c, auto* r) {
    return stub_->ReportProgress(c, request, r);
  });
}

StatusOr<v1::UploadMeasurementsResponse> WorkerClient::UploadMeasurements(
    const v1::UploadMeasurementsRequest& request) {
  grpc::ClientContext context;
  Prepare(&context, options_.call_timeout_seconds);
  return Call<v1::UploadMeasurementsResponse>(&context, [&](auto* c, auto* r) {
    return stub_->UploadMeasurements(c, request, r);
  });
}

StatusOr<v1::Job> WorkerClient::FinishJob(const v1::FinishJobRequest& request) {
  grpc::ClientContext context;
  Prepare(&context, options_.call_timeout_seconds);
  return Call<v1::Job>(&context, [&](auto* c, auto* r) { return stub_->FinishJob(c, request, r); });
}

void WorkerClient::CancelLongPolls() {
  // TryCancel only flags the call; it never blocks on the RPC, so holding mu_ here is fine.
  std::lock_guard<std::mutex> lock(mu_);
  long_polls_cancelled_ = true;
  for (grpc::ClientContext* context : long_polls_) context->TryCancel();
}

}  // namespace warpwatch::worker
