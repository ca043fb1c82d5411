// File: server/store/lease_reaper.cc
#include "server/store/lease_reaper.h"

namespace warpwatch::server {

LeaseReaper::LeaseReaper(Store& store, std::chrono::milliseconds interval)
    : store_(store), interval_(interval), thread_([this] { Loop(); }) {}

LeaseReaper::~LeaseReaper() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

Status LeaseReaper::last_error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_error_;
}

void LeaseReaper::Loop() {
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (cv_.wait_for(lock, interval_, [this] { return stop_; })) return;
    }
    // No lock held across the query.
    StatusOr<int> n = store_.RequeueExpiredLeases();
    if (n.ok()) {
      reaped_ += *n;
    } else {
      ++errors_;
      std::lock_guard<std::mutex> lock(mu_);
      last_error_ = n.status();
    }
  }
}

}  // namespace warpwatch::server
