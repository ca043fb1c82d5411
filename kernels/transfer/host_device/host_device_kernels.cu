// transfer.host_device's mapped-memory reader.
#include "kernels/core/cuda_check.h"
#include "kernels/transfer/host_device/host_device_kernels.h"

namespace warpwatch::kernels {
namespace {

__global__ void MappedCopy(const uint4* __restrict__ src, uint4* __restrict__ dst, int64_t count) {
  const int64_t stride = int64_t{gridDim.x} * blockDim.x;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    dst[i] = src[i];
  }
}

}  // namespace

const void* MappedCopyKernel() { return reinterpret_cast<const void*>(&MappedCopy); }

Status LaunchMappedCopy(const void* d_mapped_src, void* d_dst, int64_t bytes, unsigned grid,
                        cudaStream_t stream) {
  MappedCopy<<<grid, kMappedCopyBlock, 0, stream>>>(static_cast<const uint4*>(d_mapped_src),
                                                    static_cast<uint4*>(d_dst), bytes / 16);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
