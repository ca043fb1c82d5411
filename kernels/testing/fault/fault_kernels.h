// Kernels of the test-only family testing.fault: one correct copy and three ways to fault.
#ifndef WARPWATCH_KERNELS_TESTING_FAULT_FAULT_KERNELS_H_
#define WARPWATCH_KERNELS_TESTING_FAULT_FAULT_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels::fault {

enum class FaultKind { kOk, kIllegalAddress, kTrap, kHang };

// The __global__ function `kind` launches (for LaunchShape.function).
const void* FaultKernelFunction(FaultKind kind);

// Enqueues the kind's kernel over n elements: kOk copies d_in to d_out; kIllegalAddress writes
// through an unmapped pointer; kTrap executes __trap(); kHang spins until *d_flag becomes non-zero,
// which nothing ever does. Checks the launch only: the faults surface at the next synchronisation.
Status LaunchFault(FaultKind kind, const float* d_in, float* d_out, const int* d_flag, int64_t n,
                   unsigned grid, unsigned block, cudaStream_t stream);

}  // namespace warpwatch::kernels::fault

#endif  // WARPWATCH_KERNELS_TESTING_FAULT_FAULT_KERNELS_H_
