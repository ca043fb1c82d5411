// File: server/health/health_checker.cc
#include "server/health/health_checker.h"

#include <spdlog/spdlog.h>

#include "server/logging/logging.h"

namespace warpwatch::server {

const std::vector<std::string>& HealthServiceNames() {
  static const std::vector<std::string> kNames = {
      "", "warpwatch.v1.JobService", "warpwatch.v1.WorkerService", "warpwatch.v1.ResultService"};
  return kNames;
}

HealthChecker::HealthChecker(Database* database, grpc::HealthCheckServiceInterface* health,
                             std::chrono::milliseconds interval, Observer observer)
    : database_(database), health_(health), interval_(interval), observer_(std::move(observer)) {}

HealthChecker::~HealthChecker() { Stop(); }

void HealthChecker::Start() {
  ProbeOnce();
  thread_ = std::thread([this] { Loop(); });
}

void HealthChecker::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void HealthChecker::ProbeOnce() {
  const Status probe = database_->Probe();
  const bool serving = probe.ok();
  for (const std::string& name : HealthServiceNames()) health_->SetServingStatus(name, serving);
  if (observer_) observer_(serving);
  if (!published_ || serving != last_serving_) {
    if (serving) {
      spdlog::info("msg=\"database reachable; health SERVING\"");
    } else {
      spdlog::warn("msg=\"database unavailable; health NOT_SERVING\" error=\"{}\"",
                   LogEscape(probe.ToString()));
    }
  }
  published_ = true;
  last_serving_ = serving;
}

void HealthChecker::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!cv_.wait_for(lock, interval_, [this] { return stop_; })) {
    lock.unlock();
    ProbeOnce();
    lock.lock();
  }
}

}  // namespace warpwatch::server
