// matmul kernels behind host launchers (notes 2.3.1): C = A * B for square row-major side x side
// float matrices, computed straight from global memory (naive) or through tile x tile blocks of A
// and B staged in shared memory (tiled), and the fill of their inputs.
//
// Why the tiled kernel stays far from cuBLAS: it reuses each loaded element `tile` times from
// shared memory, but every FMA still needs two shared-memory loads (one of A's row, one of B's
// column) and each thread computes a single output, so shared-memory bandwidth and load
// instructions, not the FMA pipe, bound it. cuBLAS's SGEMM kernels give each thread a register
// tile of outputs (an 8 x 8 tile does 64 FMAs per 16 loaded values), load shared memory with
// 128-bit instructions, and overlap the next tile's loads with the current tile's math.
// Measured on an H100 SXM at side 2048: naive 5.5 TFLOP/s (11 % of cuBLAS), tiled (tile 32) 9.3
// TFLOP/s (18 %), cuBLAS SGEMM 50.6 TFLOP/s; at side 1024 the tiled kernel reaches 25 %.
#ifndef WARPWATCH_KERNELS_MATMUL_MATMUL_KERNELS_H_
#define WARPWATCH_KERNELS_MATMUL_MATMUL_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// Block side of the naive kernel (16 x 16 threads, one output each).
inline constexpr int kNaiveMatmulBlock = 16;

// Largest entry of the inputs: entries are integers in [1, kMatmulMaxEntry] stored as floats, so
// every partial sum is an integer below 2^24 for side <= 2^18 and any summation order (ours,
// cuBLAS's) gives the exact product.
inline constexpr int kMatmulMaxEntry = 8;

// d_out[i] = float(SeededInt(seed, i, kMatmulMaxEntry)) for i < count. Enqueued on `stream`.
Status FillMatmulInput(float* d_out, int64_t count, uint64_t seed, cudaStream_t stream);

// Preconditions: side a multiple of kNaiveMatmulBlock (naive) or of tile (tiled, tile 8, 16 or 32).
// Enqueued on `stream`; check the launch.
Status LaunchNaiveMatmul(const float* d_a, const float* d_b, float* d_c, int side,
                         cudaStream_t stream);
Status LaunchTiledMatmul(int tile, const float* d_a, const float* d_b, float* d_c, int side,
                         cudaStream_t stream);

// The __global__ functions, for occupancy; TiledMatmulKernel returns nullptr for another tile.
const void* NaiveMatmulKernel();
const void* TiledMatmulKernel(int tile);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MATMUL_MATMUL_KERNELS_H_
