// File: worker/daemon/heartbeater.cc
#include "worker/daemon/heartbeater.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

namespace warpwatch::worker {

Heartbeater::Heartbeater(WorkerClient* client, Registrar* registrar, RunningJobs* jobs,
                         BackoffPolicy backoff)
    : client_(client), registrar_(registrar), jobs_(jobs), backoff_policy_(backoff) {}

Heartbeater::~Heartbeater() { Stop(); }

void Heartbeater::Start() { thread_ = std::thread([this] { Loop(); }); }

void Heartbeater::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Status Heartbeater::Beat() {
  if (registrar_->needs_register()) {
    Status registered = registrar_->Register();
    if (!registered.ok()) return registered.Annotate("register");
    spdlog::info("registered as worker {}", registrar_->worker_id());
  }
  v1::HeartbeatRequest request;
  request.set_worker_id(registrar_->worker_id());
  for (int64_t id : jobs_->RunIds()) request.add_running_run_ids(id);
  StatusOr<v1::HeartbeatResponse> response = client_->Heartbeat(request);
  if (!response.ok()) {
    if (response.status().code() == StatusCode::kNotFound) registrar_->Invalidate();
    return response.status().Annotate("heartbeat");
  }
  for (int64_t id : response->cancelled_run_ids()) {
    spdlog::info("run {}: cancel requested", id);
    jobs_->MarkCancelRequested(id);
  }
  for (int64_t id : response->lost_run_ids()) {
    if (jobs_->MarkLost(id)) {
      spdlog::warn("run {}: lease lost; stopping it", id);
    } else {  // finished between this heartbeat's request and its answer
      spdlog::debug("run {}: not leased any more; it has ended here", id);
    }
  }
  return OkStatus();
}

void Heartbeater::Loop() {
  Backoff backoff(backoff_policy_);
  std::chrono::milliseconds wait = registrar_->heartbeat_interval();
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (cv_.wait_for(lock, wait, [this] { return stop_; })) return;
    }
    Status status = Beat();
    if (status.ok()) {
      if (backoff.attempt() > 0) spdlog::info("server reachable again");
      backoff.Reset();
      wait = registrar_->heartbeat_interval();
    } else {
      // Sooner than the interval while failing (the lease is running out), never later.
      wait = std::min(backoff.NextDelay(), registrar_->heartbeat_interval());
      if (backoff.attempt() == 1 || backoff.attempt() % 10 == 0) {
        spdlog::warn("{} (attempt {})", status.ToString(), backoff.attempt());
      }
    }
  }
}

}  // namespace warpwatch::worker
