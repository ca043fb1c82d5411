// File: server/metrics/incident_metrics.cc
#include "server/metrics/incident_metrics.h"

#include "server/metrics/detail/label_text.h"

namespace warpwatch::server::metrics {

using detail::LowerLabel;

IncidentMetrics::IncidentMetrics(prometheus::Registry& registry)
    : open_(prometheus::BuildGauge()
                .Name("warpwatch_incident_open")
                .Help("One series per untriaged incident (open or reopened, with a confirmed "
                      "finding), by incident id, kind (slowdown, speedup), cause class (software, "
                      "one_gpu, environment, unknown) and GPU model; the value is its confirmed "
                      "findings. From the database")
                .Register(registry)),
      counts_(prometheus::BuildGauge()
                  .Name("warpwatch_incidents")
                  .Help("Incidents by state (open, acknowledged, accepted, fixed, dismissed, "
                        "reopened), kind, cause class and GPU model, from the database")
                  .Register(registry)) {}

void IncidentMetrics::SetOpen(const std::vector<incidents::OpenIncident>& open) {
  std::map<Labels, double> now;
  for (const incidents::OpenIncident& i : open) {
    now[{{"incident", std::to_string(i.id)},
         {"kind", LowerLabel(i.kind)},
         {"cause", LowerLabel(i.cause_class)},
         {"modelName", i.gpu_model}}] = i.confirmed;
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = open_series_.begin(); it != open_series_.end();) {
    if (now.count(it->first) == 0) {
      open_.Remove(it->second);
      it = open_series_.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& [labels, value] : now) {
    prometheus::Gauge& gauge = open_.Add(labels);
    gauge.Set(value);
    open_series_[labels] = &gauge;
  }
}

void IncidentMetrics::SetCounts(const std::vector<incidents::IncidentCount>& counts) {
  std::map<Labels, double> now;
  for (const incidents::IncidentCount& c : counts) {
    now[{{"state", LowerLabel(c.state)},
         {"kind", LowerLabel(c.kind)},
         {"cause", LowerLabel(c.cause_class)},
         {"modelName", c.gpu_model}}] += static_cast<double>(c.count);
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [labels, value] : now) {
    counts_.Add(labels).Set(value);
    seen_counts_.insert(labels);
  }
  for (const Labels& labels : seen_counts_) {
    if (!now.count(labels)) counts_.Add(labels).Set(0);
  }
}

}  // namespace warpwatch::server::metrics
