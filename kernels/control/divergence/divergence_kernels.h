// control.divergence kernels behind host launchers: out[i] = PathA(in[i]) where a condition on i
// holds, PathB(in[i]) elsewhere (divergence_paths.h), with three ways to choose.
#ifndef WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_KERNELS_H_
#define WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class DivergenceBranch {
  kThread,      // if (i % 2 == 0) PathA else PathB: both paths run, half the lanes idle, per warp
  kWarp,        // if ((i / 32) % 2 == 0) PathA else PathB: each warp runs one path
  kPredicated,  // both paths for every i, the result chosen arithmetically (no branch at all)
};

// True where element i takes PathA under `branch` (kPredicated selects as kThread does).
constexpr bool DivergenceTakesPathA(DivergenceBranch branch, int64_t i) {
  return branch == DivergenceBranch::kWarp ? (i / 32) % 2 == 0 : i % 2 == 0;
}

// out[i] = DivergenceTakesPathA(branch, i) ? PathA(in[i]) : PathB(in[i]) for i in [0, n), one
// element per thread. Precondition: grid = ceil(n / block), block a multiple of 32 (so thread i
// of the grid is lane i % 32 of its warp). Enqueued on `stream`; checks the launch.
Status LaunchDivergence(DivergenceBranch branch, const float* d_in, float* d_out, int64_t n,
                        unsigned grid, unsigned block, cudaStream_t stream);

// The __global__ function LaunchDivergence launches for `branch` (for occupancy queries).
const void* DivergenceKernel(DivergenceBranch branch);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_KERNELS_H_
