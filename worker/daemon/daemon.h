// File: worker/daemon/daemon.h
// The worker daemon (`warpwatch-worker serve`): registers the host and its GPUs, heartbeats, runs
// one GPU loop per device, uploads measurements in the background, and shuts down cleanly.
// CUDA-free: the GPUs' identities and the Executor that runs their jobs are handed in, so tests and
// the end-to-end replay worker run it without a GPU.
#ifndef WARPWATCH_WORKER_DAEMON_DAEMON_H_
#define WARPWATCH_WORKER_DAEMON_DAEMON_H_

#include <map>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/common.pb.h"
#include "worker/client/worker_client.h"
#include "worker/daemon/daemon_options.h"
#include "worker/daemon/shutdown.h"
#include "worker/executor/executor.h"
#include "worker/metrics/metrics_sink.h"

namespace warpwatch::worker {

// One GPU the daemon runs jobs on, with the executor for it (one Execute at a time each).
struct GpuSlot {
  v1::Device device;         // full identity; index is the CUDA ordinal
  Executor* executor = nullptr;
};

// Who this worker is, as registered.
struct WorkerIdentity {
  std::string hostname;
  std::map<std::string, std::string> labels;
  std::string version;
  std::vector<std::string> families;   // families this worker build implements
  std::string worker_id;               // a previous id to keep; empty = let the server pick
};

class Daemon {
 public:
  // Every pointer must outlive the daemon; `metrics` may be null. `gpus` must not be empty.
  Daemon(WorkerClient* client, WorkerIdentity identity, std::vector<GpuSlot> gpus,
         DaemonOptions options, MetricsSink* metrics);

  // Registers (retrying with backoff while the server is unreachable), then serves until
  // RequestShutdown(): stops taking jobs, lets running jobs finish within grace_seconds, else
  // stops them, uploads what finished and hands them back (RELEASED). Returns OK after a shutdown;
  // an error only when registration is refused for good (e.g. UNAUTHENTICATED).
  Status Run();

  // Thread-safe and async-signal-unsafe: call from a normal thread (see SignalWatcher).
  void RequestShutdown() { shutdown_.Request(); }

  // The id the server gave this worker; empty before registration. Thread-safe.
  std::string worker_id() const;

 private:
  // Register until it succeeds, the shutdown comes, or the server refuses for good.
  Status RegisterWithRetry(class Registrar* registrar);

  WorkerClient* client_;
  WorkerIdentity identity_;
  std::vector<GpuSlot> gpus_;
  DaemonOptions options_;
  MetricsSink* metrics_;
  Shutdown shutdown_;

  mutable std::mutex mu_;
  std::string worker_id_;  // guarded by mu_; copied from the registrar once registered
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_DAEMON_H_
