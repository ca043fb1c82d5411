// example.grid_stride kernels behind host launchers: out[i] = 2 * in[i] + 1 over n floats, either
// one element per thread or in a grid-stride loop. The family docs/adding-a-family.md builds.
#ifndef WARPWATCH_KERNELS_EXAMPLE_GRID_STRIDE_GRID_STRIDE_KERNELS_H_
#define WARPWATCH_KERNELS_EXAMPLE_GRID_STRIDE_GRID_STRIDE_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class GridStrideLoop {
  kOnePerThread,  // thread i writes element i; precondition grid * block >= n
  kGridStride,    // thread t writes t, t + grid * block, ...; any grid >= 1
};

// out[i] = 2 * in[i] + 1 for i in [0, n). d_in and d_out hold n floats each. Enqueued on
// `stream`; checks the launch.
Status LaunchGridStrideScale(GridStrideLoop loop, const float* d_in, float* d_out, int64_t n,
                             unsigned grid, unsigned block, cudaStream_t stream);

// The __global__ function LaunchGridStrideScale launches for `loop` (for occupancy queries).
const void* GridStrideKernel(GridStrideLoop loop);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_EXAMPLE_GRID_STRIDE_GRID_STRIDE_KERNELS_H_
