// latency.ilp kernels behind host launchers: the same number of FMAs per thread as 1, 2, 4 or 8
// independent chains (ilp_chains.h), launched at a chosen number of blocks per SM, so the
// timings show how independent work in one thread stands in for more resident warps.
#ifndef WARPWATCH_KERNELS_LATENCY_ILP_ILP_KERNELS_H_
#define WARPWATCH_KERNELS_LATENCY_ILP_ILP_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// True for the chain counts built: 1, 2, 4, 8.
bool IlpSupported(int ilp);

// out[t] = the sum, in chain order, of `ilp` chains of kIlpTotalFmas / ilp steps each, from
// x = in[t], for every thread t of grid x block (one float of input and output per thread).
// Precondition: IlpSupported(ilp). Enqueued on `stream`; checks the launch.
Status LaunchIlpChains(int ilp, const float* d_in, float* d_out, unsigned grid, unsigned block,
                       cudaStream_t stream);

// The __global__ function LaunchIlpChains launches; nullptr for an unsupported ilp.
const void* IlpKernel(int ilp);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_LATENCY_ILP_ILP_KERNELS_H_
