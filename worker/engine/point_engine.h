// The per-point measurement (design.md "Measuring a case"): Setup, one Run + Verify (a failed
// verification is FAILED and never timed), warm-up, then samples until the stopping rule says
// stop (in one or more groups, each on fresh allocations), then the duration pass (the kernels'
// own CUPTI time and real names) and the optional counter pass. One engine per device, in the
// process that owns the CUDA context (the executor's child).
#ifndef WARPWATCH_WORKER_ENGINE_POINT_ENGINE_H_
#define WARPWATCH_WORKER_ENGINE_POINT_ENGINE_H_

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

#include "common/catalog/plan.h"
#include "common/status/status.h"
#include "kernels/core/family.h"
#include "warpwatch/v1/measurement.pb.h"
#include "worker/device/device_info.h"
#include "worker/device/telemetry.h"
#include "worker/engine/clock_stamps.h"
#include "worker/engine/engine_settings.h"
#include "worker/engine/l2_flusher.h"
#include "worker/engine/launch_blocker.h"
#include "worker/profiler/counter_profiler.h"
#include "worker/stats/stopping_rule.h"

namespace warpwatch::worker {

struct PointResult {
  v1::Measurement measurement;
  // A sticky CUDA error (StatusCode::kAborted or kernels::IsContextPoisoned) happened: the process's CUDA
  // context is unusable and the caller must not run another point in it.
  bool context_poisoned = false;
};

// Not thread-safe.
class PointEngine {
 public:
  // Makes `ordinal` current, reads its identity, opens telemetry (NVML or the probe), creates the
  // non-blocking stream, the L2 flush buffer, the blocking kernel's flag and the clock stamps.
  // UNAVAILABLE when there is no such device.
  static StatusOr<std::unique_ptr<PointEngine>> Open(int ordinal);
  ~PointEngine();

  // Identity, versions and start conditions (temperature, power, clocks) of the run.
  const v1::RunEnvironment& environment() const { return environment_; }
  Telemetry& telemetry() { return *telemetry_; }

  // Measures one point. Never fails as a call: every outcome is in the Measurement's status
  // (OK, FAILED with the error, SKIPPED with the reason).
  PointResult Measure(const catalog::Point& point, const EngineSettings& settings);

  // Tells the duration pass that `kernel` (a __global__ function's address) runs in this process
  // but is never a point's: its CUPTI records are dropped (the test-only contention copy, which
  // runs on a stream of its own while points are measured). The timed samples are unaffected.
  Status IgnoreKernelInTraces(const void* kernel);

 private:
  PointEngine() = default;
  // The profiler, opened on first use; null with profiler_note_ set when unavailable.
  CounterProfiler* Profiler();
  // MakeCase + Setup + one verified Run + warm-up. `m` receives verified/max_error; SKIPPED and
  // FAILED outcomes come back as a Status (FAILED_PRECONDITION = skip).
  StatusOr<std::unique_ptr<kernels::Case>> PrepareCase(const catalog::Point& point,
                                                       const EngineSettings& settings,
                                                       v1::Measurement* m);
  // Measure's body; records each phase's wall time in `wall` (Measure adds the total).
  PointResult MeasureTimed(const catalog::Point& point, const EngineSettings& settings,
                           WallClock& clock, v1::PointWallTime* wall);
  // The counter pass; `traced_launches` as RunCounterPass takes them.
  void CollectCounters(const catalog::Point& point, kernels::Case& c, bool cold,
                       const std::vector<std::string>& traced_launches, PointResult* r);

  DeviceInfo info_;
  v1::RunEnvironment environment_;
  std::unique_ptr<Telemetry> telemetry_;
  std::unique_ptr<L2Flusher> flusher_;
  std::unique_ptr<LaunchBlocker> blocker_;
  std::unique_ptr<ClockStamps> stamps_;
  std::string stamp_symbol_;  // the clock stamp kernel's symbol, the duration pass's marker
  std::vector<std::string> foreign_symbols_;  // IgnoreKernelInTraces
  cudaStream_t stream_ = nullptr;
  bool profiler_tried_ = false;
  std::unique_ptr<CounterProfiler> profiler_;
  std::string profiler_note_;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_POINT_ENGINE_H_
