// File: server/metrics/fleet_metrics.h
// The fleet's server-side metrics (design.md "Metrics"): measurements ingested and workers by
// state, registered on the server's registry.
#ifndef WARPWATCH_SERVER_METRICS_FLEET_METRICS_H_
#define WARPWATCH_SERVER_METRICS_FLEET_METRICS_H_

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <cstdint>
#include <map>
#include <vector>

#include "warpwatch/v1/common.pb.h"
#include "warpwatch/v1/fleet.pb.h"

namespace warpwatch::server::metrics {

// Thread-safe (prometheus-cpp metrics are). `registry` must outlive the object.
class FleetMetrics {
 public:
  explicit FleetMetrics(prometheus::Registry& registry);

  // warpwatch_measurements_ingested_total{result="inserted"|"duplicate"}.
  void AddIngested(int inserted, int duplicates);
  // warpwatch_workers{state="online"|"offline"} from a full listing.
  void SetWorkers(const std::vector<v1::WorkerInfo>& workers);
  // Same, from Store::CountWorkersByState; states absent from `counts` are set to 0.
  void SetWorkerCounts(const std::map<v1::WorkerState, int64_t>& counts);
  // warpwatch_jobs{state="queued"|"running"|"succeeded"|"failed"|"cancelled"}; states absent from
  // `counts` are set to 0.
  void SetJobs(const std::map<v1::JobState, int64_t>& counts);

 private:
  prometheus::Family<prometheus::Counter>& ingested_;
  prometheus::Family<prometheus::Gauge>& workers_;
  prometheus::Family<prometheus::Gauge>& jobs_;
  prometheus::Counter& inserted_;
  prometheus::Counter& duplicates_;
  prometheus::Gauge& online_;
  prometheus::Gauge& offline_;
};

}  // namespace warpwatch::server::metrics

#endif  // WARPWATCH_SERVER_METRICS_FLEET_METRICS_H_
