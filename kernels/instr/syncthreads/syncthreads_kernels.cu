// The instr.syncthreads kernel, one instantiation per barrier.
#include "kernels/core/cuda_check.h"
#include "kernels/instr/syncthreads/syncthreads_kernels.h"

namespace warpwatch::kernels {
namespace {

template <BarrierKind kKind>
__global__ void BarrierLoopKernel(const float* __restrict__ in, double* __restrict__ out, int64_t n,
                                  int iterations) {
  // volatile: the floor keeps its shared store and load instead of forwarding v to itself.
  extern __shared__ uint32_t shared_words[];
  volatile uint32_t* s = shared_words;
  const int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  uint32_t v = t < n ? __float_as_uint(in[t]) : 0u;
  const unsigned partner = kKind == BarrierKind::kNone ? threadIdx.x : (threadIdx.x ^ 1u);
  for (int i = 0; i < iterations; ++i) {
    volatile uint32_t* buf = s + (i & 1) * blockDim.x;
    buf[threadIdx.x] = v;
    if constexpr (kKind == BarrierKind::kSyncthreads) __syncthreads();
    if constexpr (kKind == BarrierKind::kSyncwarp) __syncwarp();
    v = v * 3u + buf[partner] + static_cast<uint32_t>(i);
  }
  if (t < n) out[t] = static_cast<double>(v);
}

}  // namespace

const void* BarrierKernel(BarrierKind kind) {
  switch (kind) {
    case BarrierKind::kSyncthreads:
      return reinterpret_cast<const void*>(&BarrierLoopKernel<BarrierKind::kSyncthreads>);
    case BarrierKind::kSyncwarp:
      return reinterpret_cast<const void*>(&BarrierLoopKernel<BarrierKind::kSyncwarp>);
    case BarrierKind::kNone:
      return reinterpret_cast<const void*>(&BarrierLoopKernel<BarrierKind::kNone>);
  }
  return nullptr;
}

Status LaunchBarrierLoop(BarrierKind kind, const float* d_in, double* d_out, int64_t n,
                         unsigned grid, unsigned block, cudaStream_t stream) {
  const size_t shared = BarrierSharedBytes(block);
  switch (kind) {
    case BarrierKind::kSyncthreads:
      BarrierLoopKernel<BarrierKind::kSyncthreads>
          <<<grid, block, shared, stream>>>(d_in, d_out, n, kBarrierIterations);
      break;
    case BarrierKind::kSyncwarp:
      BarrierLoopKernel<BarrierKind::kSyncwarp>
          <<<grid, block, shared, stream>>>(d_in, d_out, n, kBarrierIterations);
      break;
    case BarrierKind::kNone:
      BarrierLoopKernel<BarrierKind::kNone>
          <<<grid, block, shared, stream>>>(d_in, d_out, n, kBarrierIterations);
      break;
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
