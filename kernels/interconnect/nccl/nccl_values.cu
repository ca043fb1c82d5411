// Fills a rank's send buffer of interconnect.nccl.
#include "kernels/core/cuda_check.h"
#include "kernels/interconnect/nccl/nccl_values.h"

namespace warpwatch::kernels {
namespace {

__global__ void FillSendValues(float* out, int64_t n, int rank) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    out[i] = NcclSendValue(rank, static_cast<uint64_t>(i));
  }
}

}  // namespace

Status FillNcclSendValues(float* d_out, int64_t n, int rank, cudaStream_t stream) {
  FillSendValues<<<1024, 256, 0, stream>>>(d_out, n, rank);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
