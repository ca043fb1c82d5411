// File: worker/daemon/registrar.cc
#include "worker/daemon/registrar.h"

#include <utility>

namespace warpwatch::worker {

Registrar::Registrar(WorkerClient* client, v1::RegisterRequest identity)
    : client_(client), identity_(std::move(identity)) {
  identity_.clear_worker_id();
}

Status Registrar::Register() {
  v1::RegisterRequest request;
  {
    std::lock_guard<std::mutex> lock(mu_);
    request = identity_;
  }
  StatusOr<v1::RegisterResponse> response = client_->Register(request);
  if (!response.ok()) return response.status();
  if (response->worker_id().empty()) return InternalError("Register returned no worker id");
  std::lock_guard<std::mutex> lock(mu_);
  identity_.set_worker_id(response->worker_id());
  if (response->lease_seconds() > 0) lease_seconds_ = response->lease_seconds();
  heartbeat_seconds_ = response->heartbeat_interval_seconds() > 0
                           ? response->heartbeat_interval_seconds()
                           : lease_seconds_ / 3;
  registered_ = true;
  return OkStatus();
}

std::string Registrar::worker_id() const {
  std::lock_guard<std::mutex> lock(mu_);
  return identity_.worker_id();
}

bool Registrar::needs_register() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !registered_;
}

void Registrar::Invalidate() {
  std::lock_guard<std::mutex> lock(mu_);
  registered_ = false;
}

std::chrono::milliseconds Registrar::heartbeat_interval() const {
  std::lock_guard<std::mutex> lock(mu_);
  return std::chrono::milliseconds(static_cast<int64_t>(heartbeat_seconds_ * 1000));
}

double Registrar::lease_seconds() const {
  std::lock_guard<std::mutex> lock(mu_);
  return lease_seconds_;
}

}  // namespace warpwatch::worker
