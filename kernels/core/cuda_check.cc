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
      return true;
    default:
      return false;
  }
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
