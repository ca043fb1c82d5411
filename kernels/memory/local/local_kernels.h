// memory.local kernels behind host launchers: the same per-thread array computation
// (local_array.h) with run-time indices (the array goes to local memory, i.e. device memory
// cached in L1/L2) and with compile-time indices (the array stays in registers).
#ifndef WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_KERNELS_H_
#define WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class LocalIndexing {
  kDynamic,    // indices depend on a kernel argument: float a[size] lives in local memory
  kRegisters,  // the same indices known at compile time: a[size] is size registers
};

// True for the array sizes built (one kernel instantiation each): 4, 8, 16, 32, 64.
bool LocalArraySizeSupported(int64_t size);

// out[i] = the fold of local_array.h over in[i]'s array of `size` floats, i in [0, n), one
// element per thread. Preconditions: LocalArraySizeSupported(size); grid = ceil(n / block).
// Enqueued on `stream`; checks the launch.
Status LaunchLocalArray(LocalIndexing indexing, int64_t size, const float* d_in, float* d_out,
                        int64_t n, unsigned grid, unsigned block, cudaStream_t stream);

// The __global__ function LaunchLocalArray launches; nullptr for an unsupported size.
const void* LocalArrayKernel(LocalIndexing indexing, int64_t size);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_KERNELS_H_
