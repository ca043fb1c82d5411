// occupancy.shared_memory kernels behind host launchers: a copy that reverses each block's slice
// through dynamic shared memory. The kernel needs one float per thread; launching it with more
// dynamic shared memory than it uses leaves fewer blocks resident per SM, which is the only
// difference between the variants.
#ifndef WARPWATCH_KERNELS_OCCUPANCY_SHARED_MEMORY_SHARED_MEMORY_KERNELS_H_
#define WARPWATCH_KERNELS_OCCUPANCY_SHARED_MEMORY_SHARED_MEMORY_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// Lets the kernel launch with up to `bytes` of dynamic shared memory (the opt-in above 48 KiB).
// Call before the first launch with more than 48 KiB; not on the timed path.
Status AllowSharedReverseBytes(size_t bytes);

// Blocks of `block` threads with `dynamic_shared_bytes` each that fit on one SM at once.
StatusOr<int> SharedReverseBlocksPerSm(unsigned block, size_t dynamic_shared_bytes);

// For each block b of `block` threads, covering elements [b*block, b*block + m) with m =
// min(block, n - b*block): out[b*block + t] = in[b*block + m - 1 - t]. Preconditions: grid =
// ceil(n / block); dynamic_shared_bytes >= block * sizeof(float) (and allowed by
// AllowSharedReverseBytes above 48 KiB). Enqueued on `stream`; checks the launch.
Status LaunchSharedReverse(const float* d_in, float* d_out, int64_t n, unsigned grid,
                           unsigned block, size_t dynamic_shared_bytes, cudaStream_t stream);

// The __global__ function LaunchSharedReverse launches (for occupancy queries).
const void* SharedReverseKernel();

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_OCCUPANCY_SHARED_MEMORY_SHARED_MEMORY_KERNELS_H_
