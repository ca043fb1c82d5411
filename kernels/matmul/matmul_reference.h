// CPU reference of matmul: single entries of C = A * B, from the seeds (no host copy of A or B).
#ifndef WARPWATCH_KERNELS_MATMUL_MATMUL_REFERENCE_H_
#define WARPWATCH_KERNELS_MATMUL_MATMUL_REFERENCE_H_

#include <cstdint>
#include <utility>
#include <vector>

namespace warpwatch::kernels {

// Seeds of A and B (FillMatmulInput).
inline constexpr uint64_t kMatmulSeedA = 0x5eed0f5eedc0deULL;
inline constexpr uint64_t kMatmulSeedB = 0x5eed0f5eedc0deULL + 1;

// C[row][col] for side x side inputs filled by FillMatmulInput(kMatmulSeedA / kMatmulSeedB):
// exact (an integer below 2^24 for side <= 2^18).
float MatmulReferenceEntry(int side, int row, int col);

// The (row, col) entries Verify compares: the four corners, then up to `count` pseudo-random
// entries (a fixed sequence), so every kernel's edge and interior blocks are checked.
std::vector<std::pair<int, int>> MatmulSampledEntries(int side, int count);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MATMUL_MATMUL_REFERENCE_H_
