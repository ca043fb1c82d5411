// The memory.local kernels: one template per (indexing, array size).
#include "kernels/core/cuda_check.h"
#include "kernels/memory/local/local_array.h"
#include "kernels/memory/local/local_kernels.h"

namespace warpwatch::kernels {
namespace {

template <LocalIndexing kIndexing, int kSize>
__global__ void LocalArrayKernelT(const float* __restrict__ in, float* __restrict__ out, int64_t n,
                                  int shift) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = in[i];
  float a[kSize];
#pragma unroll
  for (int k = 0; k < kSize; ++k) a[k] = LocalArrayElement(x, k);
  const int s = kIndexing == LocalIndexing::kDynamic ? shift : kLocalShift;
  float acc = 0.0f;
#pragma unroll
  for (int round = 0; round < kLocalRounds; ++round) {
#pragma unroll
    for (int j = 0; j < kSize; ++j) acc = LocalFoldStep(acc, a[(j + round + s) % kSize]);
  }
  out[i] = acc;
}

template <LocalIndexing kIndexing>
const void* KernelFor(int64_t size) {
  switch (size) {
    case 4:
      return reinterpret_cast<const void*>(&LocalArrayKernelT<kIndexing, 4>);
    case 8:
      return reinterpret_cast<const void*>(&LocalArrayKernelT<kIndexing, 8>);
    case 16:
      return reinterpret_cast<const void*>(&LocalArrayKernelT<kIndexing, 16>);
    case 32:
      return reinterpret_cast<const void*>(&LocalArrayKernelT<kIndexing, 32>);
    case 64:
      return reinterpret_cast<const void*>(&LocalArrayKernelT<kIndexing, 64>);
    default:
      return nullptr;
  }
}

template <LocalIndexing kIndexing, int kSize>
void Launch(const float* d_in, float* d_out, int64_t n, unsigned grid, unsigned block,
            cudaStream_t stream) {
  LocalArrayKernelT<kIndexing, kSize><<<grid, block, 0, stream>>>(d_in, d_out, n, kLocalShift);
}

template <LocalIndexing kIndexing>
Status LaunchFor(int64_t size, const float* d_in, float* d_out, int64_t n, unsigned grid,
                 unsigned block, cudaStream_t stream) {
  switch (size) {
    case 4:
      Launch<kIndexing, 4>(d_in, d_out, n, grid, block, stream);
      break;
    case 8:
      Launch<kIndexing, 8>(d_in, d_out, n, grid, block, stream);
      break;
    case 16:
      Launch<kIndexing, 16>(d_in, d_out, n, grid, block, stream);
      break;
    case 32:
      Launch<kIndexing, 32>(d_in, d_out, n, grid, block, stream);
      break;
    case 64:
      Launch<kIndexing, 64>(d_in, d_out, n, grid, block, stream);
      break;
    default:
      return InvalidArgumentError("memory.local: no kernel for array size " + std::to_string(size));
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace

bool LocalArraySizeSupported(int64_t size) {
  return size == 4 || size == 8 || size == 16 || size == 32 || size == 64;
}

const void* LocalArrayKernel(LocalIndexing indexing, int64_t size) {
  return indexing == LocalIndexing::kDynamic ? KernelFor<LocalIndexing::kDynamic>(size)
                                             : KernelFor<LocalIndexing::kRegisters>(size);
}

Status LaunchLocalArray(LocalIndexing indexing, int64_t size, const float* d_in, float* d_out,
                        int64_t n, unsigned grid, unsigned block, cudaStream_t stream) {
  return indexing == LocalIndexing::kDynamic
             ? LaunchFor<LocalIndexing::kDynamic>(size, d_in, d_out, n, grid, block, stream)
             : LaunchFor<LocalIndexing::kRegisters>(size, d_in, d_out, n, grid, block, stream);
}

}  // namespace warpwatch::kernels
