// The shared.transpose kernels (after Harris, "An Efficient Matrix Transpose in CUDA C/C++"),
// generalised to any block_rows and to sides that are not a multiple of the tile.
#include "kernels/core/cuda_check.h"
#include "kernels/shared/transpose/transpose_kernels.h"

namespace warpwatch::kernels {
namespace {

constexpr int kTile = kTransposeTile;

__device__ __forceinline__ size_t At(int64_t row, int64_t col, int64_t side) {
  return static_cast<size_t>(row * side + col);
}

__global__ void TileCopyKernel(const float* __restrict__ in, float* __restrict__ out,
                               int64_t side) {
  const int64_t x = int64_t{blockIdx.x} * kTile + threadIdx.x;
  const int64_t y0 = int64_t{blockIdx.y} * kTile;
  if (x >= side) return;  // no barrier in this kernel
  for (int j = threadIdx.y; j < kTile; j += blockDim.y) {
    if (y0 + j < side) out[At(y0 + j, x, side)] = in[At(y0 + j, x, side)];
  }
}

__global__ void NaiveTransposeKernel(const float* __restrict__ in, float* __restrict__ out,
                                     int64_t side) {
  const int64_t x = int64_t{blockIdx.x} * kTile + threadIdx.x;
  const int64_t y0 = int64_t{blockIdx.y} * kTile;
  if (x >= side) return;  // no barrier in this kernel
  for (int j = threadIdx.y; j < kTile; j += blockDim.y) {
    if (y0 + j < side) out[At(x, y0 + j, side)] = in[At(y0 + j, x, side)];
  }
}

// kPad = 0: a warp reading a tile column hits one bank 32 times; kPad = 1 spreads it over 32.
template <int kPad>
__global__ void SharedTransposeKernel(const float* __restrict__ in, float* __restrict__ out,
                                      int64_t side) {
  __shared__ float tile[kTile][kTile + kPad];
  const int64_t in_x = int64_t{blockIdx.x} * kTile + threadIdx.x;
  const int64_t in_y0 = int64_t{blockIdx.y} * kTile;
  for (int j = threadIdx.y; j < kTile; j += blockDim.y) {
    if (in_x < side && in_y0 + j < side) tile[j][threadIdx.x] = in[At(in_y0 + j, in_x, side)];
  }
  __syncthreads();
  const int64_t out_x = int64_t{blockIdx.y} * kTile + threadIdx.x;
  const int64_t out_y0 = int64_t{blockIdx.x} * kTile;
  for (int j = threadIdx.y; j < kTile; j += blockDim.y) {
    if (out_x < side && out_y0 + j < side) out[At(out_y0 + j, out_x, side)] = tile[threadIdx.x][j];
  }
}

}  // namespace

const void* TransposeKernel(TransposeKind kind) {
  switch (kind) {
    case TransposeKind::kCopy:
      return reinterpret_cast<const void*>(&TileCopyKernel);
    case TransposeKind::kNaive:
      return reinterpret_cast<const void*>(&NaiveTransposeKernel);
    case TransposeKind::kSharedTile:
      return reinterpret_cast<const void*>(&SharedTransposeKernel<0>);
    case TransposeKind::kSharedTilePadded:
      return reinterpret_cast<const void*>(&SharedTransposeKernel<1>);
  }
  return nullptr;
}

Status LaunchTranspose(TransposeKind kind, const float* d_in, float* d_out, int64_t side,
                       dim3 grid, dim3 block, cudaStream_t stream) {
  switch (kind) {
    case TransposeKind::kCopy:
      TileCopyKernel<<<grid, block, 0, stream>>>(d_in, d_out, side);
      break;
    case TransposeKind::kNaive:
      NaiveTransposeKernel<<<grid, block, 0, stream>>>(d_in, d_out, side);
      break;
    case TransposeKind::kSharedTile:
      SharedTransposeKernel<0><<<grid, block, 0, stream>>>(d_in, d_out, side);
      break;
    case TransposeKind::kSharedTilePadded:
      SharedTransposeKernel<1><<<grid, block, 0, stream>>>(d_in, d_out, side);
      break;
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
