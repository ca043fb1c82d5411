// The contention copy kernel and its launcher.
#include <algorithm>

#include "kernels/core/cuda_check.h"
#include "worker/contention/stream_copy.h"

namespace warpwatch::worker {
namespace {

constexpr int kBlocksPerSm = 2;

// Four independent 16-byte loads per thread and iteration keep enough bytes in flight with few
// threads; the tail loop takes what the unrolled part leaves.
__global__ void ContentionCopyKernel(const uint4* __restrict__ src, uint4* __restrict__ dst,
                                     size_t words) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < words; i += 4 * stride) {
    const uint4 a = src[i];
    const uint4 b = src[i + stride];
    const uint4 c = src[i + 2 * stride];
    const uint4 d = src[i + 3 * stride];
    dst[i] = a;
    dst[i + stride] = b;
    dst[i + 2 * stride] = c;
    dst[i + 3 * stride] = d;
  }
  for (; i < words; i += stride) dst[i] = src[i];
}

}  // namespace

StatusOr<StreamCopyShape> StreamCopyShapeForCurrentDevice() {
  int device = 0;
  int sms = 0;
  CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
  CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  StreamCopyShape shape;
  shape.blocks = std::max(1, sms * kBlocksPerSm);
  return shape;
}

Status LaunchStreamCopy(const void* src, void* dst, size_t words, const StreamCopyShape& shape,
                        cudaStream_t stream) {
  if (shape.blocks <= 0 || shape.threads <= 0) return InvalidArgumentError("stream copy: no grid");
  ContentionCopyKernel<<<shape.blocks, shape.threads, 0, stream>>>(static_cast<const uint4*>(src),
                                                                   static_cast<uint4*>(dst), words);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

const void* StreamCopyKernel() { return reinterpret_cast<const void*>(&ContentionCopyKernel); }

}  // namespace warpwatch::worker
