// CPU reference of memory.constant.
#ifndef WARPWATCH_KERNELS_MEMORY_CONSTANT_CONSTANT_REFERENCE_H_
#define WARPWATCH_KERNELS_MEMORY_CONSTANT_CONSTANT_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "kernels/memory/constant/constant_kernels.h"

namespace warpwatch::kernels {

// What LaunchConstantReads(access, ...) writes for n threads in blocks of `block` when the table
// holds SeededFloat(seed, w) in word w.
std::vector<float> ConstantReference(ConstantAccess access, int64_t n, int64_t block,
                                     uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_CONSTANT_CONSTANT_REFERENCE_H_
