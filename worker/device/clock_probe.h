// SM clock estimate without NVML: a one-thread kernel counts clock64() cycles over a busy loop
// timed by %globaltimer (nanoseconds).
#ifndef WARPWATCH_WORKER_DEVICE_CLOCK_PROBE_H_
#define WARPWATCH_WORKER_DEVICE_CLOCK_PROBE_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::worker {

// Runs the probe on `stream` for about spin_ns nanoseconds and returns the SM clock in MHz of the
// SM it ran on. `d_scratch` must hold 2 unsigned long longs of device memory. Synchronises the
// stream. The estimate reads the clock while the GPU is nearly idle: right after a sample it
// reflects the clock the sample ran at; long after, the GPU may have clocked down.
StatusOr<double> ProbeSmClockMhz(cudaStream_t stream, uint64_t spin_ns,
                                 unsigned long long* d_scratch);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DEVICE_CLOCK_PROBE_H_
