// shared.transpose kernels behind host launchers: a side x side float matrix transposed straight
// from global memory, through a 32x32 shared tile, through a padded 32x33 tile, and a tiled copy
// as the ceiling.
#ifndef WARPWATCH_KERNELS_SHARED_TRANSPOSE_TRANSPOSE_KERNELS_H_
#define WARPWATCH_KERNELS_SHARED_TRANSPOSE_TRANSPOSE_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class TransposeKind {
  kCopy,              // out = in, same tiling: what a transpose could reach at best
  kNaive,             // out[x][y] = in[y][x]: loads coalesced, stores 32 rows apart
  kSharedTile,        // through float[32][32]: both coalesced, column reads hit one bank
  kSharedTilePadded,  // through float[32][33]: both coalesced, no bank conflicts
};

// Every kernel works on 32x32 tiles, one tile per block.
inline constexpr int kTransposeTile = 32;

// True for the block_rows the kernels are instantiated for: powers of two 1..32.
bool IsSupportedTransposeBlockRows(int64_t block_rows);

// Row-major side x side matrices (any side >= 1; edge tiles are bounds-checked). Block
// (32, block_rows), block_rows supported; grid (ceil(side/32), ceil(side/32)).
Status LaunchTranspose(TransposeKind kind, const float* d_in, float* d_out, int64_t side,
                       dim3 grid, dim3 block, cudaStream_t stream);

// The __global__ function LaunchTranspose launches for `kind` and block_rows (nullptr when
// unsupported).
const void* TransposeKernel(TransposeKind kind, unsigned block_rows);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_SHARED_TRANSPOSE_TRANSPOSE_KERNELS_H_
