// CPU reference of memory.vector_width: the bytes every width must copy.
#ifndef WARPWATCH_KERNELS_MEMORY_VECTOR_WIDTH_VECTOR_WIDTH_REFERENCE_H_
#define WARPWATCH_KERNELS_MEMORY_VECTOR_WIDTH_VECTOR_WIDTH_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// SeededByte(seed, i) for i in [0, bytes): the input FillSeededBytes(seed) wrote.
std::vector<uint8_t> VectorWidthReference(int64_t bytes, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_VECTOR_WIDTH_VECTOR_WIDTH_REFERENCE_H_
