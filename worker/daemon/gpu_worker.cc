// File: worker/daemon/gpu_worker.cc
#include "worker/daemon/gpu_worker.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <utility>

namespace warpwatch::worker {

GpuWorker::GpuWorker(JobRunnerContext context, v1::Device device, Executor* executor)
    : context_(context), device_(device), runner_(context, std::move(device), executor) {}

GpuWorker::~GpuWorker() { Join(); }

void GpuWorker::Start() { thread_ = std::thread([this] { Loop(); }); }

void GpuWorker::Join() {
  if (thread_.joinable()) thread_.join();
}

void GpuWorker::Loop() {
  Backoff backoff(context_.options->backoff);
  while (!context_.shutdown->requested()) {
    if (context_.registrar->needs_register()) {
      // The heartbeat thread registers again; wait for it.
      context_.shutdown->WaitFor(std::chrono::milliseconds(100));
      continue;
    }
    v1::AcquireJobRequest request;
    request.set_worker_id(context_.registrar->worker_id());
    request.set_device_uuid(device_.uuid());
    request.set_wait_seconds(context_.options->acquire_wait_seconds);
    StatusOr<v1::AcquireJobResponse> lease = context_.client->AcquireJob(request);
    if (!lease.ok()) {
      if (context_.shutdown->requested()) break;
      const Status& status = lease.status();
      if (status.code() == StatusCode::kNotFound) context_.registrar->Invalidate();
      auto delay = backoff.NextDelay();
      if (backoff.attempt() == 1 || backoff.attempt() % 10 == 0) {
        spdlog::warn("GPU {}: AcquireJob failed ({}), retrying in {} ms", device_.index(),
                     status.ToString(), delay.count());
      }
      context_.shutdown->WaitFor(delay);
      continue;
    }
    backoff.Reset();
    if (!lease->has_job()) continue;
    runner_.Run(*lease);
  }
  spdlog::info("GPU {}: taking no more jobs", device_.index());
}

}  // namespace warpwatch::worker
