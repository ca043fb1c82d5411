// memory.managed kernels behind host launchers: one read of every element of a buffer that may be
// managed memory, so the kernel's first touch is what migrates it.
#ifndef WARPWATCH_KERNELS_MEMORY_MANAGED_MANAGED_KERNELS_H_
#define WARPWATCH_KERNELS_MEMORY_MANAGED_MANAGED_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// out[i] = 2 * data[i] for i in [0, n), one element per thread; `d_data` may be device or managed
// memory, d_out is device memory. Precondition: grid = ceil(n / block). Enqueued on `stream`;
// checks the launch.
Status LaunchManagedScale(const float* d_data, float* d_out, int64_t n, unsigned grid,
                          unsigned block, cudaStream_t stream);

// The __global__ function LaunchManagedScale launches (for occupancy queries).
const void* ManagedScaleKernel();

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_MANAGED_MANAGED_KERNELS_H_
