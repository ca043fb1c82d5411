// The Executor interface: runs a list of case points on one GPU and reports each point as it
// finishes. The production implementation (ProcessExecutor) isolates the GPU work in a child
// process; the worker daemon's end-to-end tests replace it with a replaying executor.
#ifndef WARPWATCH_WORKER_EXECUTOR_EXECUTOR_H_
#define WARPWATCH_WORKER_EXECUTOR_EXECUTOR_H_

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/catalog/plan.h"
#include "common/status/status.h"
#include "warpwatch/v1/job.pb.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::worker {

struct ExecutionRequest {
  int device_index = 0;                          // CUDA ordinal
  v1::MeasurementSettings settings;              // zero fields take the engine's defaults
  std::vector<catalog::Point> points;            // run in this order
  std::map<std::string, std::string> labels;     // copied into RunEnvironment.labels
};

// Called on the thread that calls Execute(), in order. Any may be empty.
struct ExecutionCallbacks {
  // Once, when the device's environment is known (before the first point finishes).
  std::function<void(const v1::RunEnvironment&)> on_environment;
  std::function<void(size_t index, const catalog::Point& point)> on_point_started;
  // Once per point, whatever its status (OK, FAILED, SKIPPED); index into request.points.
  std::function<void(size_t index, const v1::Measurement& measurement)> on_measurement;
  // Polled a few times a second; true stops the run (the child is killed) and Execute returns
  // CANCELLED. Points already reported stay reported.
  std::function<bool()> cancelled;
};

struct ExecutionResult {
  v1::RunEnvironment environment;                // start values of the first child, end of the last
  std::vector<v1::Measurement> measurements;     // one per point, in request order
};

class Executor {
 public:
  virtual ~Executor() = default;

  // Runs every point. A point that fails (verification, CUDA error, crash, hang) is a FAILED
  // measurement and the run goes on; Execute itself fails only when no point can run at all
  // (e.g. UNAVAILABLE: no CUDA device) or on cancellation (CANCELLED).
  virtual StatusOr<ExecutionResult> Execute(const ExecutionRequest& request,
                                            const ExecutionCallbacks& callbacks) = 0;
};

// Default per-point timeout (MeasurementSettings.point_timeout_seconds == 0), seconds.
inline constexpr double kDefaultPointTimeoutSeconds = 15;

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_EXECUTOR_EXECUTOR_H_
