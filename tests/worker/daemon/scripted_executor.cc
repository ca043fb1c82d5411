// File: tests/worker/daemon/scripted_executor.cc
#include "tests/worker/daemon/scripted_executor.h"

#include <thread>

namespace warpwatch::worker::testing {

StatusOr<ExecutionResult> ScriptedExecutor::Execute(const ExecutionRequest& request,
                                                    const ExecutionCallbacks& callbacks) {
  ++executions;
  last_device_index = request.device_index;
  if (!fail_with.ok()) return fail_with;
  ExecutionResult result;
  result.environment.set_hostname("scripted");
  result.environment.mutable_device()->set_uuid("GPU-scripted");
  result.environment.mutable_labels()->insert(request.labels.begin(), request.labels.end());
  if (callbacks.on_environment) callbacks.on_environment(result.environment);
  for (size_t i = 0; i < request.points.size(); ++i) {
    const catalog::Point& point = request.points[i];
    if (callbacks.on_point_started) callbacks.on_point_started(i, point);
    auto end = std::chrono::steady_clock::now() + point_time;
    while (std::chrono::steady_clock::now() < end) {
      if (callbacks.cancelled && callbacks.cancelled()) {
        saw_cancel = true;
        return Status(StatusCode::kCancelled, "cancelled");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    v1::Measurement m;
    m.mutable_case_()->set_family(point.family);
    m.mutable_case_()->set_variant(point.variant);
    m.mutable_case_()->mutable_params()->insert(point.params.begin(), point.params.end());
    m.mutable_case_()->set_canonical(point.Canonical());
    if (missing_families.count(point.family)) {
      m.set_status(v1::POINT_STATUS_SKIPPED);
      m.set_error("family " + point.family + " is not implemented by this worker build");
    } else {
      m.set_status(v1::POINT_STATUS_OK);
      m.add_samples_seconds(1e-3 * (i + 1));
      m.mutable_stats()->set_median(1e-3 * (i + 1));
      m.set_gbps(100);
      m.mutable_occupancy()->set_theoretical(0.5);
    }
    ++points_run;
    if (callbacks.on_measurement) callbacks.on_measurement(i, m);
    result.measurements.push_back(m);
  }
  return result;
}

v1::JobSpec OkSpec(int points) {
  v1::JobSpec spec;
  spec.add_families("testing.fault");
  spec.add_variants("ok");
  v1::AxisOverride* axis = spec.add_axes();
  axis->set_family("testing.fault");
  axis->set_axis("n");
  for (int i = 1; i <= points; ++i) axis->add_values(1024 * i);
  (*spec.mutable_labels())["git_sha"] = "abc123";
  return spec;
}

bool WaitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

}  // namespace warpwatch::worker::testing
