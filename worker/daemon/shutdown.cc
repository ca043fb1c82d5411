// File: worker/daemon/shutdown.cc
#include "worker/daemon/shutdown.h"

namespace warpwatch::worker {

void Shutdown::Request() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (requested_) return;
    requested_ = true;
    requested_at_ = Clock::now();
  }
  cv_.notify_all();
}

bool Shutdown::requested() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requested_;
}

Shutdown::Clock::time_point Shutdown::requested_at() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requested_at_;
}

bool Shutdown::WaitFor(std::chrono::milliseconds duration) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, duration, [this] { return requested_; });
}

void Shutdown::Wait() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return requested_; });
}

}  // namespace warpwatch::worker
