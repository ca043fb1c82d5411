// HostBuffer: the host allocations of host-transfer cases.
#include "kernels/core/host_buffer.h"

#include <cuda_runtime_api.h>

#include "kernels/core/cuda_check.h"

namespace warpwatch::kernels {

HostBuffer::~HostBuffer() {
  if (data_ != nullptr && kind_ != HostMemory::kPageable) {
    CUDA_CHECK_NOEXCEPT(cudaFreeHost(data_));
  }
}

Status HostBuffer::Allocate(HostMemory kind, size_t bytes) {
  if (data_ != nullptr) return InternalError("HostBuffer::Allocate called twice");
  kind_ = kind;
  size_ = bytes;
  void* p = nullptr;
  switch (kind) {
    case HostMemory::kPageable:
      pageable_.resize(bytes);
      data_ = pageable_.data();
      return OkStatus();
    case HostMemory::kPinned:
      CUDA_RETURN_IF_ERROR(cudaHostAlloc(&p, bytes, cudaHostAllocDefault));
      break;
    case HostMemory::kWriteCombining:
      CUDA_RETURN_IF_ERROR(cudaHostAlloc(&p, bytes, cudaHostAllocWriteCombined));
      break;
    case HostMemory::kMapped:
      CUDA_RETURN_IF_ERROR(cudaHostAlloc(&p, bytes, cudaHostAllocMapped));
      data_ = static_cast<uint8_t*>(p);
      CUDA_RETURN_IF_ERROR(cudaHostGetDevicePointer(&mapped_, p, 0));
      return OkStatus();
  }
  data_ = static_cast<uint8_t*>(p);
  return OkStatus();
}

}  // namespace warpwatch::kernels
