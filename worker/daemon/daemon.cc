// File: worker/daemon/daemon.cc
#include "worker/daemon/daemon.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <utility>

#include "worker/daemon/gpu_worker.h"
#include "worker/daemon/heartbeater.h"
#include "worker/daemon/progress_reporter.h"
#include "worker/daemon/registrar.h"
#include "worker/daemon/running_jobs.h"
#include "worker/daemon/uploader.h"

namespace warpwatch::worker {
namespace {

// Errors after which registering again cannot help.
bool Permanent(StatusCode code) {
  return code == StatusCode::kUnauthenticated || code == StatusCode::kPermissionDenied ||
         code == StatusCode::kInvalidArgument || code == StatusCode::kUnimplemented;
}

v1::RegisterRequest RegisterRequestOf(const WorkerIdentity& identity,
                                      const std::vector<GpuSlot>& gpus) {
  v1::RegisterRequest request;
  request.set_hostname(identity.hostname);
  request.mutable_labels()->insert(identity.labels.begin(), identity.labels.end());
  request.set_version(identity.version);
  for (const GpuSlot& gpu : gpus) *request.add_devices() = gpu.device;
  for (const std::string& family : identity.families) request.add_families(family);
  request.set_worker_id(identity.worker_id);
  return request;
}

}  // namespace

Daemon::Daemon(WorkerClient* client, WorkerIdentity identity, std::vector<GpuSlot> gpus,
               DaemonOptions options, MetricsSink* metrics)
    : client_(client),
      identity_(std::move(identity)),
      gpus_(std::move(gpus)),
      options_(std::move(options)),
      metrics_(metrics) {}

std::string Daemon::worker_id() const {
  std::lock_guard<std::mutex> lock(mu_);
  return worker_id_;
}

Status Daemon::RegisterWithRetry(Registrar* registrar) {
  Backoff backoff(options_.backoff);
  while (!shutdown_.requested()) {
    Status status = registrar->Register();
    if (status.ok()) return OkStatus();
    if (Permanent(status.code())) return status.Annotate("register");
    auto delay = backoff.NextDelay();
    if (backoff.attempt() == 1 || backoff.attempt() % 10 == 0) {
      spdlog::warn("register: {}; retrying in {} ms", status.ToString(), delay.count());
    }
    shutdown_.WaitFor(delay);
  }
  return OkStatus();
}

Status Daemon::Run() {
  if (gpus_.empty()) return InvalidArgumentError("no GPU to serve");
  Registrar registrar(client_, RegisterRequestOf(identity_, gpus_));
  RETURN_IF_ERROR(RegisterWithRetry(&registrar));
  if (shutdown_.requested() && registrar.needs_register()) return OkStatus();
  {
    std::lock_guard<std::mutex> lock(mu_);
    worker_id_ = registrar.worker_id();
  }
  spdlog::info("registered as worker {} with {} GPU(s); heartbeat every {} ms, lease {} s",
               registrar.worker_id(), gpus_.size(), registrar.heartbeat_interval().count(),
               registrar.lease_seconds());

  RunningJobs jobs;
  UploaderOptions uploader_options = options_.uploader;
  uploader_options.on_run_lost = [&jobs](int64_t run_id) { jobs.MarkLost(run_id); };
  Uploader uploader(client_, &registrar, uploader_options);
  ProgressReporter progress(
      client_, &registrar, &jobs,
      std::chrono::milliseconds(static_cast<int64_t>(options_.progress_interval_seconds * 1000)));
  Heartbeater heartbeater(client_, &registrar, &jobs, options_.backoff);
  uploader.Start();
  progress.Start();
  heartbeater.Start();

  JobRunnerContext context;
  context.client = client_;
  context.registrar = &registrar;
  context.uploader = &uploader;
  context.progress = &progress;
  context.jobs = &jobs;
  context.shutdown = &shutdown_;
  context.metrics = metrics_;
  context.options = &options_;
  std::vector<std::unique_ptr<GpuWorker>> workers;
  for (const GpuSlot& gpu : gpus_) {
    workers.push_back(std::make_unique<GpuWorker>(context, gpu.device, gpu.executor));
    workers.back()->Start();
  }

  shutdown_.Wait();
  spdlog::info("shutting down: taking no more jobs; running jobs get {} s to finish",
               options_.grace_seconds);
  client_->CancelLongPolls();
  // Each job's runner stops its child once the grace period is over and hands the job back.
  for (auto& worker : workers) worker->Join();
  heartbeater.Stop();
  progress.Stop();
  uploader.Stop();
  spdlog::info("worker {} stopped", registrar.worker_id());
  return OkStatus();
}

}  // namespace warpwatch::worker
