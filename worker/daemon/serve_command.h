// File: worker/daemon/serve_command.h
// `serve` from parsed flags to exit code: logging, GPU selection, channel and client, metrics,
// signal handling, and the Daemon. What differs between the production worker and the test-tree
// replay worker (where GPUs come from, what runs the points) comes in as ServeHooks.
#ifndef WARPWATCH_WORKER_DAEMON_SERVE_COMMAND_H_
#define WARPWATCH_WORKER_DAEMON_SERVE_COMMAND_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/common.pb.h"
#include "worker/daemon/serve_options.h"
#include "worker/device/telemetry.h"
#include "worker/executor/executor.h"

namespace warpwatch::worker {

struct ServeHooks {
  // Every GPU of the host, index = CUDA ordinal. UNAVAILABLE when there is none.
  std::function<StatusOr<std::vector<v1::Device>>()> list_devices;
  // The executor that runs one GPU's jobs (one per served GPU).
  std::function<std::unique_ptr<Executor>(const v1::Device&)> make_executor;
  // Telemetry for the metrics while a job runs; may be empty or return null (no such gauges).
  std::function<std::unique_ptr<Telemetry>(const v1::Device&)> open_telemetry;
  std::vector<std::string> families;   // implemented by this build (RegisterRequest.families)
  std::string version;                 // worker build version
};

// Exit codes: 0 after a clean shutdown (SIGTERM/SIGINT), 2 for bad flags or no GPU, 1 when the
// server refuses registration for good or metrics cannot be served.
inline constexpr int kServeExitOk = 0;
inline constexpr int kServeExitError = 1;
inline constexpr int kServeExitUsage = 2;

// Runs the daemon until SIGTERM/SIGINT. Logs to stderr.
int RunServe(const ServeOptions& options, const ServeHooks& hooks);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_SERVE_COMMAND_H_
