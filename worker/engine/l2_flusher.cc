// L2 flush before cold samples.
#include "worker/engine/l2_flusher.h"

#include <algorithm>

#include "kernels/core/cuda_check.h"

namespace warpwatch::worker {

StatusOr<std::unique_ptr<L2Flusher>> L2Flusher::Create(int l2_bytes) {
  auto f = std::unique_ptr<L2Flusher>(new L2Flusher());
  f->bytes_ = std::max<size_t>(static_cast<size_t>(std::max(l2_bytes, 0)), size_t{1} << 20);
  // Persisting L2 lines would survive the flush; devices without the feature report an error
  // for the limit, which is harmless: nothing persists there.
  if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0) != cudaSuccess) {
    (void)cudaGetLastError();
  }
  if (cudaCtxResetPersistingL2Cache() != cudaSuccess) (void)cudaGetLastError();
  CUDA_RETURN_IF_ERROR(cudaMalloc(&f->d_buffer_, f->bytes_));
  return f;
}

L2Flusher::~L2Flusher() {
  if (d_buffer_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFree(d_buffer_));
}

Status L2Flusher::Flush(cudaStream_t stream) {
  fill_ ^= 0x5a;
  CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_buffer_, fill_, bytes_, stream));
  return OkStatus();
}

}  // namespace warpwatch::worker
