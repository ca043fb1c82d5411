// File: server/metrics/gpu_health_metrics.h
// Each GPU's health verdict as a gauge with dcgm-exporter's labels, so dashboards and alerts join
// it with DCGM_FI_* series: warpwatch_gpu_health{gpu,UUID,modelName,Hostname} = 0 healthy,
// 1 degraded, 2 failing, 3 unknown (the Nagios codes of `warpwatch health --check`).
#ifndef WARPWATCH_SERVER_METRICS_GPU_HEALTH_METRICS_H_
#define WARPWATCH_SERVER_METRICS_GPU_HEALTH_METRICS_H_

#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "warpwatch/v1/gpu_health.pb.h"

namespace warpwatch::server::metrics {

// Thread-safe. `registry` must outlive the object.
class GpuHealthMetrics {
 public:
  explicit GpuHealthMetrics(prometheus::Registry& registry);

  // Sets one series per GPU of `verdicts` (every known GPU); a GPU no longer listed is removed.
  void Set(const std::vector<v1::GpuHealth>& verdicts);

 private:
  using Labels = std::map<std::string, std::string>;
  prometheus::Family<prometheus::Gauge>& health_;
  std::mutex mu_;
  std::set<Labels> exported_;  // guarded by mu_
};

}  // namespace warpwatch::server::metrics

#endif  // WARPWATCH_SERVER_METRICS_GPU_HEALTH_METRICS_H_
