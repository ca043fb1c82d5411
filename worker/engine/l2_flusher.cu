// L2 flush before cold samples: a read pass over twice the L2 size.
#include <algorithm>

#include "kernels/core/cuda_check.h"
#include "worker/engine/l2_flusher.h"

namespace warpwatch::worker {
namespace {

// Grid-stride 16-byte loads of the whole buffer. The XOR of everything read is compared with a
// value it cannot equal in practice, so the loads stay while nothing is written.
__global__ void L2FlushReadKernel(const uint4* __restrict__ buffer, size_t count,
                                  unsigned int* sink) {
  unsigned int acc = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const uint4 v = __ldcg(buffer + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u && threadIdx.x == 0xffffu) *sink = acc;
}

constexpr int kBlock = 512;

}  // namespace

const void* L2Flusher::ReadPassKernel() {
  return reinterpret_cast<const void*>(&L2FlushReadKernel);
}

StatusOr<std::unique_ptr<L2Flusher>> L2Flusher::Create(int l2_bytes, FlushMethod method) {
  auto f = std::unique_ptr<L2Flusher>(new L2Flusher());
  f->method_ = method;
  const size_t l2 = std::max<size_t>(static_cast<size_t>(std::max(l2_bytes, 0)), size_t{1} << 20);
  f->bytes_ = 2 * l2;
  // Persisting L2 lines would survive the flush; devices without the feature report an error
  // for the limit, which is harmless: nothing persists there.
  if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0) != cudaSuccess) {
    (void)cudaGetLastError();
  }
  if (cudaCtxResetPersistingL2Cache() != cudaSuccess) (void)cudaGetLastError();
  CUDA_RETURN_IF_ERROR(cudaMalloc(&f->d_buffer_, f->bytes_));
  CUDA_RETURN_IF_ERROR(cudaMalloc(reinterpret_cast<void**>(&f->d_sink_), sizeof(unsigned int)));
  CUDA_RETURN_IF_ERROR(cudaMemset(f->d_buffer_, 0x5a, f->bytes_));
  int device = 0;
  int sms = 0;
  int per_sm = 0;
  CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
  CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_RETURN_IF_ERROR(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, L2FlushReadKernel, kBlock, 0));
  f->blocks_ = std::max(1, sms * std::max(1, per_sm));
  // One flush now: with lazy module loading (CUDA's default) a kernel's first launch loads its
  // module and may wait for the device, which would deadlock behind the blocking kernel.
  RETURN_IF_ERROR(f->ReadPass(nullptr));
  CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize());
  return StatusOr<std::unique_ptr<L2Flusher>>(std::move(f));
}

L2Flusher::~L2Flusher() {
  if (d_buffer_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFree(d_buffer_));
  if (d_sink_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFree(d_sink_));
}

Status L2Flusher::ReadPass(cudaStream_t stream) {
  L2FlushReadKernel<<<blocks_, kBlock, 0, stream>>>(static_cast<const uint4*>(d_buffer_),
                                                    bytes_ / sizeof(uint4), d_sink_);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

Status L2Flusher::Flush(cudaStream_t stream) {
  switch (method_) {
    case FlushMethod::kReadPass:
      return ReadPass(stream);
    case FlushMethod::kMemset:
    case FlushMethod::kMemsetThenRead:
      fill_ ^= 0x5a;
      CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_buffer_, fill_, bytes_, stream));
      return method_ == FlushMethod::kMemset ? OkStatus() : ReadPass(stream);
  }
  return InternalError("unknown flush method");
}

}  // namespace warpwatch::worker
