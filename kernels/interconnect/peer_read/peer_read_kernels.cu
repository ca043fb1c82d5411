// The checksum reader of interconnect.peer_read.
#include "kernels/core/cuda_check.h"
#include "kernels/interconnect/peer_read/peer_read_kernels.h"

namespace warpwatch::kernels {
namespace {

__global__ void __launch_bounds__(kPeerReadBlock)
    PeerReadSum(const uint4* __restrict__ src, int64_t vectors, uint32_t* sum) {
  uint32_t acc = 0;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors;
       i += stride) {
    const uint4 v = src[i];
    acc += v.x + v.y + v.z + v.w;
  }
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, acc);
}

}  // namespace

Status LaunchPeerRead(const uint32_t* d_src, int64_t words, uint32_t* d_sum, unsigned grid,
                      cudaStream_t stream) {
  PeerReadSum<<<grid, kPeerReadBlock, 0, stream>>>(reinterpret_cast<const uint4*>(d_src),
                                                   words / 4, d_sum);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

const void* PeerReadKernel() { return reinterpret_cast<const void*>(&PeerReadSum); }

}  // namespace warpwatch::kernels
