// memory.allocation_churn kernels behind host launchers: a producer that writes a scratch buffer
// and a consumer that reads it, the work a temporary workspace is allocated for.
#ifndef WARPWATCH_KERNELS_MEMORY_ALLOCATION_CHURN_ALLOCATION_CHURN_KERNELS_H_
#define WARPWATCH_KERNELS_MEMORY_ALLOCATION_CHURN_ALLOCATION_CHURN_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// scratch[i] = 2 * in[i], then out[i] = scratch[i] + in[i], for i in [0, n): two launches on
// `stream`, one element per thread each. Precondition: grid = ceil(n / block). Checks both
// launches.
Status LaunchScratchProduceConsume(const float* d_in, float* d_scratch, float* d_out, int64_t n,
                                   unsigned grid, unsigned block, cudaStream_t stream);

// The producer, the first __global__ function LaunchScratchProduceConsume launches.
const void* ScratchProduceKernel();

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_ALLOCATION_CHURN_ALLOCATION_CHURN_KERNELS_H_
