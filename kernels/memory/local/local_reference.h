// CPU reference of memory.local.
#ifndef WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_REFERENCE_H_
#define WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// out[i] = the fold of local_array.h (rotation kLocalShift) over the array of `size` floats built
// from x = SeededFloat(seed, i), for each i of `indices`: what both variants must produce, bit for
// bit.
std::vector<float> LocalReference(const std::vector<int64_t>& indices, int size, uint64_t seed);

// The elements Verify checks: the first and last kLocalVerifyEdge and every
// kLocalVerifyStride-th between. An element costs the CPU size * (1 + kLocalRounds) rounded FMAs
// (288 at size 32), so all of a 2^22-element point would take seconds. Elements are independent, so
// a sample covering every warp position, both edges and the partial last block catches wrong
// indexing and results.
inline constexpr int64_t kLocalVerifyEdge = 4096;
inline constexpr int64_t kLocalVerifyStride = 61;
std::vector<int64_t> LocalVerifiedElements(int64_t n);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_REFERENCE_H_
