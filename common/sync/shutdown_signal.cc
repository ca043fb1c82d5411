// File: common/sync/shutdown_signal.cc
#include "common/sync/shutdown_signal.h"

namespace warpwatch {

void ShutdownSignal::Raise() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    raised_ = true;
  }
  cv_.notify_all();
}

bool ShutdownSignal::raised() const {
  std::lock_guard<std::mutex> lock(mu_);
  return raised_;
}

bool ShutdownSignal::WaitFor(std::chrono::milliseconds timeout) const {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, timeout, [this] { return raised_; });
}

}  // namespace warpwatch
