// concurrency.streams' kernel behind a host launcher: an element-wise FMA chain whose length sets
// how much compute a chunk of data costs next to its transfers.
#ifndef WARPWATCH_KERNELS_CONCURRENCY_STREAMS_STREAMS_KERNELS_H_
#define WARPWATCH_KERNELS_CONCURRENCY_STREAMS_STREAMS_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

// FMA steps per element: the pipeline's kernel (comparable to its copies on an H100) and the
// small kernels'.
inline constexpr int kPipelineIterations = 1024;
inline constexpr int kSmallKernelIterations = 64;

// One element's result: v = x, then `iterations` times v = v * (1 - 2^-10) + x.
WW_HOST_DEVICE inline float StreamWorkMultiplier() { return 1.0f - 1.0f / 1024; }

// d_out[i] = the chain on d_in[i] for i < count, grid-stride over `grid` blocks of `block`
// threads. Enqueued on `stream`; checks the launch.
Status LaunchStreamWork(const float* d_in, float* d_out, int64_t count, int iterations,
                        unsigned grid, unsigned block, cudaStream_t stream);
const void* StreamWorkKernel();

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CONCURRENCY_STREAMS_STREAMS_KERNELS_H_
