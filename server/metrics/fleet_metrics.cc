// File: server/metrics/fleet_metrics.cc
#include "server/metrics/fleet_metrics.h"

namespace warpwatch::server::metrics {
namespace {

prometheus::Family<prometheus::Counter>& IngestedFamily(prometheus::Registry& registry) {
  return prometheus::BuildCounter()
      .Name("warpwatch_measurements_ingested_total")
      .Help("Measurements received from workers: stored (inserted) or already stored (duplicate)")
      .Register(registry);
}

prometheus::Family<prometheus::Gauge>& WorkersFamily(prometheus::Registry& registry) {
  return prometheus::BuildGauge()
      .Name("warpwatch_workers")
      .Help("Registered workers by state (online: heard from within three heartbeat intervals)")
      .Register(registry);
}

}  // namespace

FleetMetrics::FleetMetrics(prometheus::Registry& registry)
    : ingested_(IngestedFamily(registry)),
      workers_(WorkersFamily(registry)),
      inserted_(ingested_.Add({{"result", "inserted"}})),
      duplicates_(ingested_.Add({{"result", "duplicate"}})),
      online_(workers_.Add({{"state", "online"}})),
      offline_(workers_.Add({{"state", "offline"}})) {}

void FleetMetrics::AddIngested(int inserted, int duplicates) {
  if (inserted > 0) inserted_.Increment(inserted);
  if (duplicates > 0) duplicates_.Increment(duplicates);
}

void FleetMetrics::SetWorkers(const std::vector<v1::WorkerInfo>& workers) {
  int online = 0;
  for (const v1::WorkerInfo& worker : workers) online += worker.state() == v1::WORKER_STATE_ONLINE;
  online_.Set(online);
  offline_.Set(static_cast<double>(workers.size()) - online);
}

}  // namespace warpwatch::server::metrics
