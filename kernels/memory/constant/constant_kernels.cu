// The memory.constant kernels: one template per access pattern over the same table.
#include "kernels/core/cuda_check.h"
#include "kernels/memory/constant/constant_kernels.h"

namespace warpwatch::kernels {
namespace {

__constant__ float c_table[kConstantTableWords];

template <ConstantAccess kAccess>
__global__ void ConstantReadKernel(const float* __restrict__ g_table, float* __restrict__ out,
                                   int64_t n) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int base = static_cast<int>(ConstantBase(kAccess, blockIdx.x, threadIdx.x));
  float acc = 0.0f;
#pragma unroll 16
  for (int r = 0; r < kConstantReads; ++r) {
    const int word = (base + r) % kConstantTableWords;
    const float v = kAccess == ConstantAccess::kGlobalDivergent ? g_table[word] : c_table[word];
    acc = __fmaf_rn(acc, 0.5f, v);
  }
  out[i] = acc;
}

}  // namespace

Status UploadConstantTable(const float* d_table, cudaStream_t stream) {
  CUDA_RETURN_IF_ERROR(cudaMemcpyToSymbolAsync(c_table, d_table, sizeof(c_table), 0,
                                               cudaMemcpyDeviceToDevice, stream));
  return OkStatus();
}

const void* ConstantKernel(ConstantAccess access) {
  switch (access) {
    case ConstantAccess::kConstantUniform:
      return reinterpret_cast<const void*>(&ConstantReadKernel<ConstantAccess::kConstantUniform>);
    case ConstantAccess::kConstantDivergent:
      return reinterpret_cast<const void*>(&ConstantReadKernel<ConstantAccess::kConstantDivergent>);
    case ConstantAccess::kGlobalDivergent:
      return reinterpret_cast<const void*>(&ConstantReadKernel<ConstantAccess::kGlobalDivergent>);
  }
  return nullptr;
}

Status LaunchConstantReads(ConstantAccess access, const float* d_table, float* d_out, int64_t n,
                           unsigned grid, unsigned block, cudaStream_t stream) {
  switch (access) {
    case ConstantAccess::kConstantUniform:
      ConstantReadKernel<ConstantAccess::kConstantUniform>
          <<<grid, block, 0, stream>>>(d_table, d_out, n);
      break;
    case ConstantAccess::kConstantDivergent:
      ConstantReadKernel<ConstantAccess::kConstantDivergent>
          <<<grid, block, 0, stream>>>(d_table, d_out, n);
      break;
    case ConstantAccess::kGlobalDivergent:
      ConstantReadKernel<ConstantAccess::kGlobalDivergent>
          <<<grid, block, 0, stream>>>(d_table, d_out, n);
      break;
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
