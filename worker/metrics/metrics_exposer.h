// File: worker/metrics/metrics_exposer.h
// Serves a Prometheus registry on /metrics (prometheus-cpp's civetweb exposer).
#ifndef WARPWATCH_WORKER_METRICS_METRICS_EXPOSER_H_
#define WARPWATCH_WORKER_METRICS_METRICS_EXPOSER_H_

#include <prometheus/exposer.h>
#include <prometheus/registry.h>

#include <memory>
#include <string>

#include "common/status/status.h"

namespace warpwatch::worker {

// ":9465" -> "0.0.0.0:9465"; "host:port" unchanged. INVALID_ARGUMENT without a port.
StatusOr<std::string> MetricsBindAddress(const std::string& listen);

// Starts serving `registry` at http://<listen>/metrics. UNAVAILABLE when the address cannot be
// bound. The exposer serves until destroyed; `registry` is held weakly, so keep it alive.
StatusOr<std::unique_ptr<prometheus::Exposer>> ExposeMetrics(
    const std::string& listen, const std::shared_ptr<prometheus::Registry>& registry);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_METRICS_METRICS_EXPOSER_H_
