// control.unroll kernels behind host launchers: the same 16-step loop (unroll_step.h) under
// #pragma unroll 1, 4 and full, so the timings differ only by the loop's own instructions.
#ifndef WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_KERNELS_H_
#define WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class UnrollFactor { kOne, kFour, kFull };

// out[i] = kUnrollOuterReps passes of steps k = 0..kUnrollInnerSteps-1 of UnrollStep from
// y = x = in[i], for i in [0, n), one element per thread. Precondition: grid = ceil(n / block).
// Enqueued on `stream`; checks the launch.
Status LaunchUnroll(UnrollFactor factor, const float* d_in, float* d_out, int64_t n, unsigned grid,
                    unsigned block, cudaStream_t stream);

// The __global__ function LaunchUnroll launches for `factor` (for occupancy queries).
const void* UnrollKernel(UnrollFactor factor);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_KERNELS_H_
