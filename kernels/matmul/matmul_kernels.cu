// The matmul kernels: naive, shared-memory tiled, and the input fill.
#include "kernels/core/cuda_check.h"
#include "kernels/core/seeded_values.h"
#include "kernels/matmul/matmul_kernels.h"

namespace warpwatch::kernels {
namespace {

__global__ void FillKernel(float* __restrict__ out, int64_t count, uint64_t seed) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < count)
    out[i] = static_cast<float>(SeededInt(seed, static_cast<uint64_t>(i), kMatmulMaxEntry));
}

__global__ void NaiveKernel(const float* __restrict__ a, const float* __restrict__ b,
                            float* __restrict__ c, int side) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= side || col >= side) return;
  float sum = 0.0f;
  for (int k = 0; k < side; ++k) {
    sum += a[int64_t{row} * side + k] * b[int64_t{k} * side + col];
  }
  c[int64_t{row} * side + col] = sum;
}

template <int kTile>
__global__ void TiledKernel(const float* __restrict__ a, const float* __restrict__ b,
                            float* __restrict__ c, int side) {
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;
  float sum = 0.0f;
  for (int m = 0; m < side; m += kTile) {
    a_tile[ty][tx] = a[int64_t{row} * side + m + tx];
    b_tile[ty][tx] = b[int64_t{m + ty} * side + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTile; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  c[int64_t{row} * side + col] = sum;
}

}  // namespace

Status FillMatmulInput(float* d_out, int64_t count, uint64_t seed, cudaStream_t stream) {
  constexpr unsigned kBlock = 256;
  const unsigned grid = static_cast<unsigned>((count + kBlock - 1) / kBlock);
  FillKernel<<<grid, kBlock, 0, stream>>>(d_out, count, seed);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

const void* NaiveMatmulKernel() { return reinterpret_cast<const void*>(&NaiveKernel); }

const void* TiledMatmulKernel(int tile) {
  switch (tile) {
    case 8:
      return reinterpret_cast<const void*>(&TiledKernel<8>);
    case 16:
      return reinterpret_cast<const void*>(&TiledKernel<16>);
    case 32:
      return reinterpret_cast<const void*>(&TiledKernel<32>);
  }
  return nullptr;
}

Status LaunchNaiveMatmul(const float* d_a, const float* d_b, float* d_c, int side,
                         cudaStream_t stream) {
  const dim3 block(kNaiveMatmulBlock, kNaiveMatmulBlock);
  const dim3 grid(side / kNaiveMatmulBlock, side / kNaiveMatmulBlock);
  NaiveKernel<<<grid, block, 0, stream>>>(d_a, d_b, d_c, side);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

Status LaunchTiledMatmul(int tile, const float* d_a, const float* d_b, float* d_c, int side,
                         cudaStream_t stream) {
  const dim3 block(tile, tile);
  const dim3 grid(side / tile, side / tile);
  switch (tile) {
    case 8:
      TiledKernel<8><<<grid, block, 0, stream>>>(d_a, d_b, d_c, side);
      break;
    case 16:
      TiledKernel<16><<<grid, block, 0, stream>>>(d_a, d_b, d_c, side);
      break;
    case 32:
      TiledKernel<32><<<grid, block, 0, stream>>>(d_a, d_b, d_c, side);
      break;
    default:
      return InvalidArgumentError("tiled matmul: tile must be 8, 16 or 32");
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
