// File: server/metrics/gpu_health_metrics.cc
#include "server/metrics/gpu_health_metrics.h"

#include "common/health/nagios_code.h"

namespace warpwatch::server::metrics {

GpuHealthMetrics::GpuHealthMetrics(prometheus::Registry& registry)
    : health_(prometheus::BuildGauge()
                  .Name("warpwatch_gpu_health")
                  .Help("Each GPU's health verdict (docs/gpu_health.md): 0 healthy, 1 degraded "
                        "(a subsystem slower than its same-night peers, or fewer links to another GPU "
                        "of its node than before, on consecutive runs), 2 failing (by 20 % or "
                        "more), 3 unknown (no judged run within the expiry, "
                        "or excluded by a person); dcgm-exporter's labels")
                  .Register(registry)) {}

void GpuHealthMetrics::Set(const std::vector<v1::GpuHealth>& verdicts) {
  std::set<Labels> now;
  std::lock_guard<std::mutex> lock(mu_);
  for (const v1::GpuHealth& v : verdicts) {
    Labels labels = {{"gpu", std::to_string(v.gpu_index())},
                     {"UUID", v.device_uuid()},
                     {"modelName", v.gpu_model()},
                     {"Hostname", v.hostname()}};
    health_.Add(labels).Set(NagiosCode(v.state()));
    now.insert(std::move(labels));
  }
  for (const Labels& gone : exported_) {
    if (now.count(gone) == 0) health_.Remove(&health_.Add(gone));
  }
  exported_ = std::move(now);
}

}  // namespace warpwatch::server::metrics
