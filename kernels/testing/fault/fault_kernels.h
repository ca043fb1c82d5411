// Kernels of the test-only family testing.fault: one correct copy and the ways it faults.
#ifndef WARPWATCH_KERNELS_TESTING_FAULT_FAULT_KERNELS_H_
#define WARPWATCH_KERNELS_TESTING_FAULT_FAULT_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels::fault {

enum class FaultKind {
  kOk,
  kIllegalAddress,
  kTrap,
  kHang,
  kPersistentError,
  kLaunchOrder,
  kCopyThenMemset,  // the copy; the case adds a memset after it (fault_family.cc)
};

// The __global__ function `kind` launches (for LaunchShape.function).
const void* FaultKernelFunction(FaultKind kind);

// Enqueues the kind's kernel over n elements: kOk copies d_in to d_out; kIllegalAddress writes
// through an unmapped pointer; kTrap executes __trap(); kHang spins until *d_flag becomes non-zero,
// which nothing ever does. Checks the launch only: the faults surface at the next synchronisation.
// kPersistentError is the copy too (what it does wrong is LeaveStreamCaptureOpen's). kLaunchOrder
// faults nothing: it launches the copy, OneWarpKernel (one block of 32 threads copying the first
// 32 elements again) and the copy again, so a Run() launches kernels A, B, A with far apart
// occupancy (the counter pass's per-launch test).
Status LaunchFault(FaultKind kind, const float* d_in, float* d_out, const int* d_flag, int64_t n,
                   unsigned grid, unsigned block, cudaStream_t stream);

// Leaves the process's CUDA state failing with a code no sticky-error list names: begins a
// global-mode stream capture on `capture_stream`, enqueues the copy into it (captured, never run)
// and synchronises the device, which is illegal while a capture is open. Returns that
// synchronisation's error (cudaErrorStreamCaptureUnsupported); as the capture is never ended,
// every later device synchronisation, allocation or free in the process fails the same way.
// Precondition: capture_stream is a stream of its own (not the legacy default stream).
Status LeaveStreamCaptureOpen(cudaStream_t capture_stream, const float* d_in, float* d_out,
                              int64_t n, unsigned grid, unsigned block);

}  // namespace warpwatch::kernels::fault

#endif  // WARPWATCH_KERNELS_TESTING_FAULT_FAULT_KERNELS_H_
