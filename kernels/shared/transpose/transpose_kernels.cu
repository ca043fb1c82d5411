// The shared.transpose kernels (after Harris, "An Efficient Matrix Transpose in CUDA C/C++"),
// generalised to sides that are not a multiple of the tile. block_rows is a template parameter so
// each thread's 32 / block_rows loads are unrolled and in flight together before any store: with
// a run-time trip count the loop kept one load in flight and even the tiled copy lost ~15 %.
#include "kernels/core/cuda_check.h"
#include "kernels/shared/transpose/transpose_kernels.h"

namespace warpwatch::kernels {
namespace {

constexpr int kTile = kTransposeTile;

__device__ __forceinline__ size_t At(int64_t row, int64_t col, int64_t side) {
  return static_cast<size_t>(row * side + col);
}

// kTranspose = false: the tiled copy (the ceiling); true: the naive transpose (strided stores).
template <int kRows, bool kTranspose>
__global__ void DirectKernel(const float* __restrict__ in, float* __restrict__ out, int64_t side) {
  constexpr int kPerThread = kTile / kRows;
  const int64_t x = int64_t{blockIdx.x} * kTile + threadIdx.x;
  const int64_t y0 = int64_t{blockIdx.y} * kTile + threadIdx.y;
  float v[kPerThread];
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int64_t y = y0 + k * kRows;
    if (x < side && y < side) v[k] = in[At(y, x, side)];
  }
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int64_t y = y0 + k * kRows;
    if (x < side && y < side) out[kTranspose ? At(x, y, side) : At(y, x, side)] = v[k];
  }
}

// kPad = 0: a warp reading a tile column hits one bank 32 times; kPad = 1 spreads it over 32.
template <int kRows, int kPad>
__global__ void SharedTransposeKernel(const float* __restrict__ in, float* __restrict__ out,
                                      int64_t side) {
  constexpr int kPerThread = kTile / kRows;
  __shared__ float tile[kTile][kTile + kPad];
  const int64_t in_x = int64_t{blockIdx.x} * kTile + threadIdx.x;
  const int64_t in_y0 = int64_t{blockIdx.y} * kTile + threadIdx.y;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int64_t y = in_y0 + k * kRows;
    if (in_x < side && y < side) tile[threadIdx.y + k * kRows][threadIdx.x] = in[At(y, in_x, side)];
  }
  __syncthreads();
  const int64_t out_x = int64_t{blockIdx.y} * kTile + threadIdx.x;
  const int64_t out_y0 = int64_t{blockIdx.x} * kTile + threadIdx.y;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int64_t y = out_y0 + k * kRows;
    if (out_x < side && y < side) out[At(y, out_x, side)] = tile[threadIdx.x][threadIdx.y + k * kRows];
  }
}

using TransposeFn = void (*)(const float*, float*, int64_t);

template <int kRows>
TransposeFn KernelForRows(TransposeKind kind) {
  switch (kind) {
    case TransposeKind::kCopy:
      return &DirectKernel<kRows, false>;
    case TransposeKind::kNaive:
      return &DirectKernel<kRows, true>;
    case TransposeKind::kSharedTile:
      return &SharedTransposeKernel<kRows, 0>;
    case TransposeKind::kSharedTilePadded:
      return &SharedTransposeKernel<kRows, 1>;
  }
  return nullptr;
}

TransposeFn KernelFor(TransposeKind kind, unsigned block_rows) {
  switch (block_rows) {
    case 1:
      return KernelForRows<1>(kind);
    case 2:
      return KernelForRows<2>(kind);
    case 4:
      return KernelForRows<4>(kind);
    case 8:
      return KernelForRows<8>(kind);
    case 16:
      return KernelForRows<16>(kind);
    case 32:
      return KernelForRows<32>(kind);
    default:
      return nullptr;
  }
}

}  // namespace

bool IsSupportedTransposeBlockRows(int64_t block_rows) {
  return block_rows >= 1 && block_rows <= kTile && (block_rows & (block_rows - 1)) == 0;
}

const void* TransposeKernel(TransposeKind kind, unsigned block_rows) {
  return reinterpret_cast<const void*>(KernelFor(kind, block_rows));
}

Status LaunchTranspose(TransposeKind kind, const float* d_in, float* d_out, int64_t side,
                       dim3 grid, dim3 block, cudaStream_t stream) {
  TransposeFn kernel = block.x == kTile ? KernelFor(kind, block.y) : nullptr;
  if (kernel == nullptr) {
    return InvalidArgumentError("LaunchTranspose: block must be (32, power of two <= 32)");
  }
  kernel<<<grid, block, 0, stream>>>(d_in, d_out, side);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
