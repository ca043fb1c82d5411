// The contention generator's kernel: a grid-stride copy of 16-byte words, DRAM to DRAM.
#ifndef WARPWATCH_WORKER_CONTENTION_STREAM_COPY_H_
#define WARPWATCH_WORKER_CONTENTION_STREAM_COPY_H_

#include <cuda_runtime_api.h>

#include <cstddef>

#include "common/status/status.h"

namespace warpwatch::worker {

// Grid of the copy: few resident threads (a small share of each SM), each with four 16-byte loads
// in flight, enough bytes in flight to keep DRAM busy while leaving SM slots to the measured
// kernels (the point is bandwidth contention, not SM starvation).
struct StreamCopyShape {
  int blocks = 0;  // 2 per SM
  int threads = 256;
};

// The shape for the current device.
StatusOr<StreamCopyShape> StreamCopyShapeForCurrentDevice();

// Enqueues dst[i] = src[i] for i < words on `stream` and checks the launch (cudaPeekAtLastError).
// src and dst are device arrays of at least `words` 16-byte words that do not overlap.
Status LaunchStreamCopy(const void* src, void* dst, size_t words, const StreamCopyShape& shape,
                        cudaStream_t stream);

// The kernel, so traces can tell its records from the measured kernels'.
const void* StreamCopyKernel();

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CONTENTION_STREAM_COPY_H_
