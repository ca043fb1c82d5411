// File: worker/metrics/metrics_sink.h
// What the daemon tells its metrics about: jobs starting and ending on a GPU, and each finished
// point. An interface so the daemon runs with Prometheus (WorkerMetrics) or with nothing in tests.
#ifndef WARPWATCH_WORKER_METRICS_METRICS_SINK_H_
#define WARPWATCH_WORKER_METRICS_METRICS_SINK_H_

#include <cstdint>
#include <string>

#include "warpwatch/v1/common.pb.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::worker {

// Implementations are thread-safe: every GPU's job thread calls them.
class MetricsSink {
 public:
  virtual ~MetricsSink() = default;
  // A job started running on `device` (telemetry is sampled while one runs).
  virtual void OnJobStarted(const v1::Device& device) = 0;
  // The job running on `device` expanded into `points` case points (after OnJobStarted; a job
  // whose spec cannot be expanded never reports a plan).
  virtual void OnJobPlanned(const v1::Device& device, int64_t points) = 0;
  // `outcome`: "succeeded", "failed", "cancelled", "released" or "lost".
  virtual void OnJobFinished(const v1::Device& device, const std::string& outcome) = 0;
  // One point finished on `device`, whatever its status.
  virtual void OnPoint(const v1::Device& device, const v1::Measurement& measurement) = 0;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_METRICS_METRICS_SINK_H_
