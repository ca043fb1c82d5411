// Device allocation with "not enough memory" reported as a precondition, not an error.
#include "kernels/core/device_buffer.h"

namespace warpwatch::kernels {

Status AllocateDeviceBytes(size_t bytes, const std::string& what, void** ptr) {
  *ptr = nullptr;
  if (bytes == 0) return OkStatus();
  size_t free_bytes = 0;
  size_t total_bytes = 0;
  CUDA_RETURN_IF_ERROR(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > free_bytes) {
    return FailedPreconditionError(what + " needs " + std::to_string(bytes) +
                                   " bytes of device memory, only " + std::to_string(free_bytes) +
                                   " free");
  }
  cudaError_t err = cudaMalloc(ptr, bytes);
  if (err == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();  // not sticky: clear it so the next launch check is clean
    *ptr = nullptr;
    return FailedPreconditionError(what + ": cudaMalloc of " + std::to_string(bytes) +
                                   " bytes failed: out of device memory");
  }
  CUDA_RETURN_IF_ERROR(err);
  return OkStatus();
}

void FreeDeviceBytes(void* ptr) noexcept {
  if (ptr != nullptr) CUDA_CHECK_NOEXCEPT(cudaFree(ptr));
}

}  // namespace warpwatch::kernels
