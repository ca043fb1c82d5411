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

// True for errors after which the CUDA context is unusable.
bool IsStickyCudaError(cudaError_t err);

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
