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

prometheus::Family<prometheus::Gauge>& JobsFamily(prometheus::Registry& registry) {
  return prometheus::BuildGauge()
      .Name("warpwatch_jobs")
      .Help("Jobs by state, as stored in the database (refreshed after each reaper pass)")
      .Register(registry);
}

// The job states the gauge always exports, with their label values.
constexpr struct {
  v1::JobState state;
  const char* label;
} kJobStates[] = {{v1::JOB_STATE_QUEUED, "queued"},
                  {v1::JOB_STATE_RUNNING, "running"},
                  {v1::JOB_STATE_SUCCEEDED, "succeeded"},
                  {v1::JOB_STATE_FAILED, "failed"},
                  {v1::JOB_STATE_CANCELLED, "cancelled"}};

}  // namespace

FleetMetrics::FleetMetrics(prometheus::Registry& registry)
    : ingested_(IngestedFamily(registry)),
      workers_(WorkersFamily(registry)),
      jobs_(JobsFamily(registry)),
      inserted_(ingested_.Add({{"result", "inserted"}})),
      duplicates_(ingested_.Add({{"result", "duplicate"}})),
      online_(workers_.Add({{"state", "online"}})),
      offline_(workers_.Add({{"state", "offline"}})) {
  for (const auto& s : kJobStates) jobs_.Add({{"state", s.label}});
}

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

void FleetMetrics::SetWorkerCounts(const std::map<v1::WorkerState, int64_t>& counts) {
  auto count = [&](v1::WorkerState state) {
    auto it = counts.find(state);
    return it == counts.end() ? 0.0 : static_cast<double>(it->second);
  };
  online_.Set(count(v1::WORKER_STATE_ONLINE));
  offline_.Set(count(v1::WORKER_STATE_OFFLINE));
}

void FleetMetrics::SetJobs(const std::map<v1::JobState, int64_t>& counts) {
  for (const auto& s : kJobStates) {
    auto it = counts.find(s.state);
    jobs_.Add({{"state", s.label}}).Set(it == counts.end() ? 0 : static_cast<double>(it->second));
  }
}

}  // namespace warpwatch::server::metrics
