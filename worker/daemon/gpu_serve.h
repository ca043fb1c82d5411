// File: worker/daemon/gpu_serve.h
// The production `warpwatch-worker serve`: this host's CUDA devices, NVML telemetry for the
// metrics, and the fault-proof ProcessExecutor running `<this binary> exec` children. Needs CUDA
// (library warpwatch_serve_gpu); executables linking it must also link warpwatch_kernels.
#ifndef WARPWATCH_WORKER_DAEMON_GPU_SERVE_H_
#define WARPWATCH_WORKER_DAEMON_GPU_SERVE_H_

#include "worker/daemon/serve_options.h"

namespace warpwatch::worker {

// RunServe with the real GPUs. Exit codes as RunServe's (2 when the host has no CUDA device).
int RunGpuServe(const ServeOptions& options);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_GPU_SERVE_H_
