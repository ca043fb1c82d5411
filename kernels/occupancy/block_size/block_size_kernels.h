// occupancy.block_size kernel behind host launchers: SAXPY with one element per thread, so the
// number of resident warps (set by the block size) is all that hides the memory latency.
#ifndef WARPWATCH_KERNELS_OCCUPANCY_BLOCK_SIZE_BLOCK_SIZE_KERNELS_H_
#define WARPWATCH_KERNELS_OCCUPANCY_BLOCK_SIZE_BLOCK_SIZE_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// out[i] = fmaf(a, x[i], y[i]) for i in [0, n) (any n >= 1); grid = ceil(n / block).
Status LaunchSaxpy(float a, const float* d_x, const float* d_y, float* d_out, int64_t n,
                   unsigned grid, unsigned block, cudaStream_t stream);

const void* SaxpyKernel();

// The block size cudaOccupancyMaxPotentialBlockSize picks for the SAXPY kernel on the current
// device (no dynamic shared memory, no block size limit).
StatusOr<int> SaxpyPotentialBlockSize();

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_OCCUPANCY_BLOCK_SIZE_BLOCK_SIZE_KERNELS_H_
