// Formatting of CUDA errors into Status values.
#include "kernels/core/cuda_check.h"

#include <cstdio>

namespace warpwatch::kernels {

bool IsStickyCudaError(cudaError_t err) {
  switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorContained:            // a fault caught by the GPU's error containment
    case cudaErrorTensorMemoryLeak:     // a kernel exited with tensor memory still allocated
    case cudaErrorMpsClientTerminated:  // the MPS server terminated this client
    case cudaErrorExternalDevice:       // an external device signalled an error on shared data
      return true;
    default:
      return false;
  }
}

bool IsContextPoisoned(cudaError_t* error, const CudaSyncOps& ops) {
  cudaError_t err = ops.synchronize();
  if (err != cudaSuccess && !IsStickyCudaError(err)) {
    (void)ops.clear_last_error();
    err = ops.synchronize();
    if (err == cudaSuccess) return false;
  }
  if (err == cudaSuccess) {
    (void)ops.clear_last_error();  // an error a launch left behind that no sync reports
    return false;
  }
  if (error != nullptr) *error = err;
  return true;
}

Status CudaError(cudaError_t err, const char* call, const char* file, int line) {
  std::string msg = std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                    cudaGetErrorName(err) + ": " + cudaGetErrorString(err);
  return Status(IsStickyCudaError(err) ? StatusCode::kAborted : StatusCode::kInternal,
                std::move(msg));
}

void LogCudaErrorNoexcept(cudaError_t err, const char* call, const char* file, int line) noexcept {
  std::fprintf(stderr, "%s:%d: %s: %s: %s\n", file, line, call, cudaGetErrorName(err),
               cudaGetErrorString(err));
}

}  // namespace warpwatch::kernels
