// File: server/metrics/incident_metrics.h
// Incidents as metrics, counted from the database by the gauge refresher (every replica exports
// the same values: aggregate with max):
//  - warpwatch_incident_open{incident,kind,cause,modelName}: one series per untriaged incident
//    (OPEN or REOPENED with a confirmed finding), valued its confirmed findings; the series goes
//    away when the incident is triaged or closed. The alerts read it: one alert per incident.
//  - warpwatch_incidents{state,kind,cause,modelName}: every incident, counted (dashboards).
// Labels are lower case (kind slowdown/speedup, cause software/one_gpu/environment/unknown).
#ifndef WARPWATCH_SERVER_METRICS_INCIDENT_METRICS_H_
#define WARPWATCH_SERVER_METRICS_INCIDENT_METRICS_H_

#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "server/incidents/incident_store.h"

namespace warpwatch::server::metrics {

// Thread-safe. `registry` must outlive the object.
class IncidentMetrics {
 public:
  explicit IncidentMetrics(prometheus::Registry& registry);

  // Replaces the open incidents' series: those absent now are removed.
  void SetOpen(const std::vector<incidents::OpenIncident>& open);
  // Sets the counts; a group seen before and absent now reads 0.
  void SetCounts(const std::vector<incidents::IncidentCount>& counts);

 private:
  using Labels = std::map<std::string, std::string>;
  prometheus::Family<prometheus::Gauge>& open_;
  prometheus::Family<prometheus::Gauge>& counts_;
  std::mutex mu_;
  std::map<Labels, prometheus::Gauge*> open_series_;  // guarded by mu_
  std::set<Labels> seen_counts_;                      // guarded by mu_
};

}  // namespace warpwatch::server::metrics

#endif  // WARPWATCH_SERVER_METRICS_INCIDENT_METRICS_H_
