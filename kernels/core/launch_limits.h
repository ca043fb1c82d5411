// Grid-size arithmetic and the device limits that make a point impossible. CUDA-free (reads only a
// cudaDeviceProp), so Family::MakeCase can reject a point before touching the GPU.
#ifndef WARPWATCH_KERNELS_CORE_LAUNCH_LIMITS_H_
#define WARPWATCH_KERNELS_CORE_LAUNCH_LIMITS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

constexpr int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// FAILED_PRECONDITION when the block has more threads than prop.maxThreadsPerBlock or exceeds a
// per-dimension limit.
Status CheckBlock(dim3 block, const cudaDeviceProp& prop);

// FAILED_PRECONDITION when `bytes` of shared memory per block exceed what a block may use
// (prop.sharedMemPerBlockOptin; sharedMemPerBlock when the opt-in figure is absent).
Status CheckSharedBytes(size_t bytes, const cudaDeviceProp& prop);

// FAILED_PRECONDITION when `bytes` of device buffers cannot fit in the device's global memory.
// Setup re-checks against free memory when it allocates (DeviceBuffer).
Status CheckDeviceMemory(double bytes, const cudaDeviceProp& prop);

// Blocks needed to give `per_block` items to each block: ceil(items / per_block), at least 1.
// FAILED_PRECONDITION when that exceeds prop.maxGridSize[0].
StatusOr<unsigned> GridFor(int64_t items, int64_t per_block, const cudaDeviceProp& prop);

// Blocks for a grid-stride kernel: enough resident blocks to fill every SM
// (`blocks_per_sm` x `sm_count`), but no more than the work needs (ceil(items / per_block), at
// least 1).
unsigned GridStrideBlocks(int64_t items, int64_t per_block, int blocks_per_sm, int sm_count);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_LAUNCH_LIMITS_H_
