// File: tests/worker/daemon/scripted_executor.h
// Test doubles for the daemon: an Executor that "runs" each point by sleeping a set time (checking
// cancelled() meanwhile) and reports an OK measurement, SKIPPED for families it is told it lacks,
// or fails Execute as scripted; and helpers to build specs and wait for conditions.
#ifndef WARPWATCH_TESTS_WORKER_DAEMON_SCRIPTED_EXECUTOR_H_
#define WARPWATCH_TESTS_WORKER_DAEMON_SCRIPTED_EXECUTOR_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <set>
#include <string>

#include "worker/executor/executor.h"

namespace warpwatch::worker::testing {

class ScriptedExecutor : public Executor {
 public:
  std::chrono::milliseconds point_time{20};
  std::set<std::string> missing_families;  // their points come back SKIPPED
  Status fail_with;                         // not OK: Execute fails with it before any point
  std::atomic<int> executions{0};
  std::atomic<int> points_run{0};
  std::atomic<bool> saw_cancel{false};
  std::atomic<int> last_device_index{-1};

  StatusOr<ExecutionResult> Execute(const ExecutionRequest& request,
                                    const ExecutionCallbacks& callbacks) override;
};

// testing.fault/ok over `points` values of n (1024, 2048, ...): `points` case points.
v1::JobSpec OkSpec(int points);

// Polls `done` every 10 ms for up to `timeout`; true once it held.
bool WaitUntil(const std::function<bool()>& done,
               std::chrono::milliseconds timeout = std::chrono::seconds(10));

}  // namespace warpwatch::worker::testing

#endif  // WARPWATCH_TESTS_WORKER_DAEMON_SCRIPTED_EXECUTOR_H_
