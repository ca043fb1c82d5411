// File: server/metrics/gauge_refresher.cc
#include "server/metrics/gauge_refresher.h"

namespace warpwatch::server::metrics {

GaugeRefresher::GaugeRefresher(Database* database, std::chrono::milliseconds interval,
                               std::function<void(Store&)> refresh)
    : database_(database), interval_(interval), refresh_(std::move(refresh)) {}

GaugeRefresher::~GaugeRefresher() { Stop(); }

void GaugeRefresher::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void GaugeRefresher::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void GaugeRefresher::Loop() {
  while (true) {
    // No lock held across the queries.
    if (database_->schema_ready()) {
      StatusOr<Store*> store = database_->ReadyStore();
      if (store.ok()) {
        refresh_(**store);
        ++passes_;
      }
    }
    std::unique_lock<std::mutex> lock(mu_);
    if (cv_.wait_for(lock, interval_, [this] { return stop_; })) return;
  }
}

}  // namespace warpwatch::server::metrics
