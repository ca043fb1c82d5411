// File: worker/metrics/worker_metrics.h
// The worker's Prometheus metrics (names warpwatch_worker_*, base units): per case on its GPUs the
// latest kernel time, bandwidth and occupancy; per GPU, while a job runs, SM clock, temperature,
// power and throttle state; the job in progress (points done, start time); points and jobs counted
// by status. Labels join with dcgm-exporter:
// gpu, UUID, modelName, Hostname (plus family, variant, case for per-case series). Never a label
// per job or run id.
#ifndef WARPWATCH_WORKER_METRICS_WORKER_METRICS_H_
#define WARPWATCH_WORKER_METRICS_WORKER_METRICS_H_

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "worker/device/telemetry.h"
#include "worker/metrics/metrics_sink.h"

namespace warpwatch::worker {

// Thread-safe. Telemetry objects are only used by the sampling thread.
class WorkerMetrics : public MetricsSink {
 public:
  explicit WorkerMetrics(std::string hostname);
  ~WorkerMetrics() override;  // StopSampling()

  // Declares a GPU before jobs run on it. `telemetry` (may be null: no clock/thermal gauges) is
  // read every sampling interval while a job runs on the device.
  void AddDevice(const v1::Device& device, std::unique_ptr<Telemetry> telemetry);
  void StartSampling(std::chrono::milliseconds interval);
  void StopSampling();
  // One sampling pass now (what the thread does each interval).
  void SampleOnce();

  void OnJobStarted(const v1::Device& device) override;
  void OnJobPlanned(const v1::Device& device, int64_t points) override;
  void OnJobFinished(const v1::Device& device, const std::string& outcome) override;
  void OnPoint(const v1::Device& device, const v1::Measurement& measurement) override;

  std::shared_ptr<prometheus::Registry> registry() const { return registry_; }

 private:
  struct TelemetryGauges {
    prometheus::Gauge* sm_clock = nullptr;
    prometheus::Gauge* temperature = nullptr;
    prometheus::Gauge* power = nullptr;
    prometheus::Gauge* throttled = nullptr;
    prometheus::Gauge* throttle_reasons = nullptr;
  };
  // The running job's gauges; exist only while a job runs on the GPU (a finished job's count
  // would read as progress of the next).
  struct JobGauges {
    prometheus::Gauge* points_done = nullptr;
    prometheus::Gauge* points_planned = nullptr;
    prometheus::Gauge* start_time = nullptr;
  };
  struct Gpu {
    v1::Device device;
    std::unique_ptr<Telemetry> telemetry;
    bool busy = false;
    TelemetryGauges gauges;  // set while busy and sampled
    JobGauges job;           // set while busy
  };

  prometheus::Labels GpuLabels(const v1::Device& device) const;
  // Removes the telemetry gauges of an idle GPU (stale clocks would mislead). Requires mu_.
  void ClearTelemetryGauges(Gpu* gpu);
  void Loop(std::chrono::milliseconds interval);

  std::string hostname_;
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Gauge>& kernel_time_;
  prometheus::Family<prometheus::Gauge>& bandwidth_;
  prometheus::Family<prometheus::Gauge>& occupancy_theoretical_;
  prometheus::Family<prometheus::Gauge>& occupancy_achieved_;
  prometheus::Family<prometheus::Gauge>& busy_;
  prometheus::Family<prometheus::Gauge>& sm_clock_;
  prometheus::Family<prometheus::Gauge>& temperature_;
  prometheus::Family<prometheus::Gauge>& power_;
  prometheus::Family<prometheus::Gauge>& throttled_;
  prometheus::Family<prometheus::Gauge>& throttle_reasons_;
  prometheus::Family<prometheus::Gauge>& job_points_done_;
  prometheus::Family<prometheus::Gauge>& job_points_planned_;
  prometheus::Family<prometheus::Gauge>& job_start_time_;
  prometheus::Family<prometheus::Counter>& points_;
  prometheus::Family<prometheus::Counter>& jobs_;

  std::mutex mu_;  // guards gpus_ and the sampling state
  std::condition_variable cv_;
  std::map<std::string, Gpu> gpus_;  // by uuid
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_METRICS_WORKER_METRICS_H_
