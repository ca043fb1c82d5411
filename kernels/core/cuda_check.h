// One checked-CUDA-call idiom for kernels/ and worker/: errors become Status values carrying the
// file, line and the call's text.
#ifndef WARPWATCH_KERNELS_CORE_CUDA_CHECK_H_
#define WARPWATCH_KERNELS_CORE_CUDA_CHECK_H_

#include <cuda_runtime_api.h>

#include <string>

#include "common/status/status.h"

namespace warpwatch::kernels {

// INTERNAL status "file:line: call: cudaErrorName: description". Sticky errors (the context is
// poisoned: illegal address, trap, launch failure) use ABORTED so callers know to start afresh.
Status CudaError(cudaError_t err, const char* call, const char* file, int line);

// True for errors after which the CUDA context is unusable: every code driver_types.h documents
// as leaving "the process in an inconsistent state" (the process must be terminated and
// relaunched), plus an uncorrectable ECC error.
bool IsStickyCudaError(cudaError_t err);

// The CUDA calls IsContextPoisoned makes, replaceable in tests.
struct CudaSyncOps {
  cudaError_t (*synchronize)() = cudaDeviceSynchronize;
  cudaError_t (*clear_last_error)() = cudaGetLastError;
};

// After a failed point: is the calling thread's CUDA context still usable? Synchronises the
// device. A sticky code is poisoned at once. Any other error is cleared and the device
// synchronised a second time: an error that survives it is poisoned too, whatever its code (codes
// the list above does not name, codes of a later toolkit, a process stuck in a bad state). On
// true, *error (when given) is the poisoning error; on false the context's error state is clear.
// Blocks until the device is idle.
bool IsContextPoisoned(cudaError_t* error = nullptr, const CudaSyncOps& ops = CudaSyncOps());

}  // namespace warpwatch::kernels

#define CUDA_RETURN_IF_ERROR(call)                                                        \
  do {                                                                                    \
    cudaError_t _ww_err = (call);                                                         \
    if (_ww_err != cudaSuccess)                                                           \
      return ::warpwatch::kernels::CudaError(_ww_err, #call, __FILE__, __LINE__);         \
  } while (0)

// After every <<<>>> launch: configuration errors now, asynchronous faults at the next sync.
#define CUDA_RETURN_IF_LAUNCH_ERROR() CUDA_RETURN_IF_ERROR(cudaPeekAtLastError())

// For destructors: logs to stderr, never throws or returns.
#define CUDA_CHECK_NOEXCEPT(call)                                                         \
  do {                                                                                    \
    cudaError_t _ww_err = (call);                                                         \
    if (_ww_err != cudaSuccess)                                                           \
      ::warpwatch::kernels::LogCudaErrorNoexcept(_ww_err, #call, __FILE__, __LINE__);     \
  } while (0)

namespace warpwatch::kernels {
void LogCudaErrorNoexcept(cudaError_t err, const char* call, const char* file, int line) noexcept;
}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_CUDA_CHECK_H_
