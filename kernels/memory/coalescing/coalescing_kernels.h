// memory.coalescing kernels behind host launchers: the same float copy with three index mappings
// (contiguous, scattered, strided), so the only difference the timings show is the access pattern.
#ifndef WARPWATCH_KERNELS_MEMORY_COALESCING_COALESCING_KERNELS_H_
#define WARPWATCH_KERNELS_MEMORY_COALESCING_COALESCING_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class CoalescingPattern {
  kContiguous,  // i = block*blockDim + thread: a warp reads 128 contiguous bytes
  kScattered,   // i = block + thread*gridDim: neighbouring threads a whole grid apart
  kStrided,     // out[i] = in[i*stride]: a warp spans 32*stride floats of input
};

// Each thread copies this many elements, as that many consecutive "virtual blocks" of
// blockDim.x threads (the index formulas above apply per virtual block, with gridDim.x * this as
// the virtual grid). Independent loads in flight per thread are what let a copy reach the DRAM
// bandwidth; every pattern gets the same number.
inline constexpr int kCoalescingElementsPerThread = 4;

// out[i] = in[src(i)] for i in [0, n): src(i) = i for kContiguous and kScattered (which differ in
// which thread handles i), i*stride for kStrided (d_in holds n*stride floats there). Any n >= 1;
// grid: ceil(n / (block * kCoalescingElementsPerThread)). Enqueued on `stream`; checks the launch.
Status LaunchCoalescingCopy(CoalescingPattern pattern, const float* d_in, float* d_out, int64_t n,
                            int64_t stride, unsigned grid, unsigned block, cudaStream_t stream);

// The __global__ function LaunchCoalescingCopy launches for `pattern` (for occupancy queries).
const void* CoalescingKernel(CoalescingPattern pattern);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_COALESCING_COALESCING_KERNELS_H_
