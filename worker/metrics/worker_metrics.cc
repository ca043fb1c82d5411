// File: worker/metrics/worker_metrics.cc
#include "worker/metrics/worker_metrics.h"

#include <chrono>
#include <utility>
#include <vector>

#include "worker/stats/throttle.h"

namespace warpwatch::worker {
namespace {

prometheus::Family<prometheus::Gauge>& Gauge(prometheus::Registry& registry, const char* name,
                                             const char* help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(registry);
}

prometheus::Family<prometheus::Counter>& Counter(prometheus::Registry& registry, const char* name,
                                                 const char* help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
}

std::string StatusLabel(v1::PointStatus status) {
  switch (status) {
    case v1::POINT_STATUS_OK:
      return "ok";
    case v1::POINT_STATUS_FAILED:
      return "failed";
    case v1::POINT_STATUS_SKIPPED:
      return "skipped";
    default:
      return "unspecified";
  }
}

}  // namespace

WorkerMetrics::WorkerMetrics(std::string hostname)
    : hostname_(std::move(hostname)),
      registry_(std::make_shared<prometheus::Registry>()),
      kernel_time_(Gauge(*registry_, "warpwatch_worker_kernel_time_seconds",
                         "Median kernel time of the latest measurement of a case")),
      bandwidth_(Gauge(*registry_, "warpwatch_worker_bandwidth_bytes_per_second",
                       "Useful bytes moved per second in the latest measurement of a case")),
      occupancy_theoretical_(Gauge(*registry_, "warpwatch_worker_occupancy_theoretical_ratio",
                                   "Theoretical occupancy of the latest measurement of a case")),
      occupancy_achieved_(Gauge(*registry_, "warpwatch_worker_occupancy_achieved_ratio",
                                "Achieved occupancy (CUPTI) of the latest measurement of a case")),
      busy_(Gauge(*registry_, "warpwatch_worker_gpu_busy", "1 while a job runs on the GPU")),
      sm_clock_(Gauge(*registry_, "warpwatch_worker_sm_clock_hertz", "SM clock while a job runs")),
      temperature_(Gauge(*registry_, "warpwatch_worker_gpu_temperature_celsius",
                         "GPU temperature while a job runs")),
      power_(Gauge(*registry_, "warpwatch_worker_power_watts", "GPU power while a job runs")),
      throttled_(
          Gauge(*registry_, "warpwatch_worker_throttled",
                "1 when a clocks-event reason that pulls the clock below its setting (power cap, "
                "slowdown, thermal, sync boost, power brake) is set while a job runs")),
      throttle_reasons_(Gauge(*registry_, "warpwatch_worker_throttle_reasons",
                              "NVML clocks-event reason bits while a job runs")),
      job_points_done_(Gauge(*registry_, "warpwatch_worker_job_points_done",
                             "Case points the job running on the GPU has finished so far")),
      job_points_planned_(Gauge(*registry_, "warpwatch_worker_job_points_planned",
                                "Case points the job running on the GPU expanded into")),
      job_start_time_(Gauge(*registry_, "warpwatch_worker_job_start_time_seconds",
                            "Unix time the job running on the GPU started")),
      points_(
          Counter(*registry_, "warpwatch_worker_points_total", "Case points finished, by status")),
      jobs_(Counter(*registry_, "warpwatch_worker_jobs_total", "Jobs ended, by outcome")) {}

WorkerMetrics::~WorkerMetrics() { StopSampling(); }

prometheus::Labels WorkerMetrics::GpuLabels(const v1::Device& device) const {
  return {{"gpu", std::to_string(device.index())},
          {"UUID", device.uuid()},
          {"modelName", device.name()},
          {"Hostname", hostname_}};
}

void WorkerMetrics::AddDevice(const v1::Device& device, std::unique_ptr<Telemetry> telemetry) {
  std::lock_guard<std::mutex> lock(mu_);
  Gpu& gpu = gpus_[device.uuid()];
  gpu.device = device;
  gpu.telemetry = std::move(telemetry);
  busy_.Add(GpuLabels(device)).Set(0);
}

void WorkerMetrics::OnJobStarted(const v1::Device& device) {
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  {
    std::lock_guard<std::mutex> lock(mu_);
    Gpu& gpu = gpus_[device.uuid()];
    gpu.busy = true;
    busy_.Add(GpuLabels(device)).Set(1);
    if (!gpu.job.points_done) gpu.job.points_done = &job_points_done_.Add(GpuLabels(device));
    gpu.job.points_done->Set(0);
    if (!gpu.job.start_time) gpu.job.start_time = &job_start_time_.Add(GpuLabels(device));
    gpu.job.start_time->Set(now);
  }
  cv_.notify_all();  // sample at once
}

void WorkerMetrics::OnJobPlanned(const v1::Device& device, int64_t points) {
  std::lock_guard<std::mutex> lock(mu_);
  Gpu& gpu = gpus_[device.uuid()];
  if (!gpu.busy) return;  // no job running: nothing to show progress against
  if (!gpu.job.points_planned) {
    gpu.job.points_planned = &job_points_planned_.Add(GpuLabels(device));
  }
  gpu.job.points_planned->Set(static_cast<double>(points));
}

void WorkerMetrics::OnJobFinished(const v1::Device& device, const std::string& outcome) {
  std::lock_guard<std::mutex> lock(mu_);
  Gpu& gpu = gpus_[device.uuid()];
  gpu.busy = false;
  ClearTelemetryGauges(&gpu);
  if (gpu.job.points_done) job_points_done_.Remove(gpu.job.points_done);
  if (gpu.job.start_time) job_start_time_.Remove(gpu.job.start_time);
  if (gpu.job.points_planned) job_points_planned_.Remove(gpu.job.points_planned);
  gpu.job = JobGauges{};
  busy_.Add(GpuLabels(device)).Set(0);
  prometheus::Labels labels = GpuLabels(device);
  labels["outcome"] = outcome;
  jobs_.Add(labels).Increment();
}

void WorkerMetrics::OnPoint(const v1::Device& device, const v1::Measurement& m) {
  prometheus::Labels labels = GpuLabels(device);
  labels["status"] = StatusLabel(m.status());
  std::lock_guard<std::mutex> lock(mu_);
  points_.Add(labels).Increment();
  auto gpu = gpus_.find(device.uuid());
  if (gpu != gpus_.end() && gpu->second.busy && gpu->second.job.points_done) {
    gpu->second.job.points_done->Increment();
  }
  if (m.status() != v1::POINT_STATUS_OK) return;
  labels.erase("status");
  labels["family"] = m.case_().family();
  labels["variant"] = m.case_().variant();
  labels["case"] = m.case_().canonical();
  kernel_time_.Add(labels).Set(m.stats().median());
  bandwidth_.Add(labels).Set(m.gbps() * 1e9);
  occupancy_theoretical_.Add(labels).Set(m.occupancy().theoretical());
  if (m.occupancy().has_achieved()) occupancy_achieved_.Add(labels).Set(m.occupancy().achieved());
}

void WorkerMetrics::ClearTelemetryGauges(Gpu* gpu) {
  TelemetryGauges& g = gpu->gauges;
  if (g.sm_clock) sm_clock_.Remove(g.sm_clock);
  if (g.temperature) temperature_.Remove(g.temperature);
  if (g.power) power_.Remove(g.power);
  if (g.throttled) throttled_.Remove(g.throttled);
  if (g.throttle_reasons) throttle_reasons_.Remove(g.throttle_reasons);
  g = TelemetryGauges{};
}

void WorkerMetrics::SampleOnce() {
  struct Reading {
    std::string uuid;
    ClockReading clock;
    DeviceConditions conditions;
  };
  std::vector<std::pair<std::string, Telemetry*>> busy;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [uuid, gpu] : gpus_) {
      if (gpu.busy && gpu.telemetry) busy.emplace_back(uuid, gpu.telemetry.get());
    }
  }
  // Telemetry reads (NVML) happen outside the lock; only this thread uses the objects.
  std::vector<Reading> readings;
  for (auto& [uuid, telemetry] : busy) {
    readings.push_back({uuid, telemetry->ReadClock(), telemetry->ReadConditions()});
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (const Reading& r : readings) {
    Gpu& gpu = gpus_[r.uuid];
    if (!gpu.busy) continue;
    prometheus::Labels labels = GpuLabels(gpu.device);
    TelemetryGauges& g = gpu.gauges;
    if (r.clock.sm_clock_mhz > 0) {
      if (!g.sm_clock) g.sm_clock = &sm_clock_.Add(labels);
      g.sm_clock->Set(r.clock.sm_clock_mhz * 1e6);
    }
    if (r.conditions.temperature_c > 0) {
      if (!g.temperature) g.temperature = &temperature_.Add(labels);
      g.temperature->Set(r.conditions.temperature_c);
    }
    if (r.conditions.power_w > 0) {
      if (!g.power) g.power = &power_.Add(labels);
      g.power->Set(r.conditions.power_w);
    }
    if (!g.throttled) g.throttled = &throttled_.Add(labels);
    g.throttled->Set(IsSlowdown(r.clock.throttle_reasons) ? 1 : 0);
    if (!g.throttle_reasons) g.throttle_reasons = &throttle_reasons_.Add(labels);
    g.throttle_reasons->Set(static_cast<double>(r.clock.throttle_reasons));
  }
}

void WorkerMetrics::StartSampling(std::chrono::milliseconds interval) {
  thread_ = std::thread([this, interval] { Loop(interval); });
}

void WorkerMetrics::StopSampling() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void WorkerMetrics::Loop(std::chrono::milliseconds interval) {
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (cv_.wait_for(lock, interval, [this] { return stop_; })) return;
    }
    SampleOnce();
  }
}

}  // namespace warpwatch::worker
