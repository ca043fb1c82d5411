// memory.vector_width kernels behind host launchers: one byte copy done through 1-, 2-, 4-, 8- or
// 16-byte words per load/store instruction.
#ifndef WARPWATCH_KERNELS_MEMORY_VECTOR_WIDTH_VECTOR_WIDTH_KERNELS_H_
#define WARPWATCH_KERNELS_MEMORY_VECTOR_WIDTH_VECTOR_WIDTH_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// Words each thread copies (consecutive blocks of blockDim.x words, so every load is coalesced);
// the same for every width, so only the width changes between variants.
inline constexpr int kVectorWordsPerThread = 4;

// Copies `bytes` bytes from d_in to d_out through `word_bytes`-byte words (1, 2, 4, 8 or 16); the
// bytes after the last whole word are copied one by one by the last block. Both pointers must be
// aligned to word_bytes (cudaMalloc's are). grid: ceil(bytes / word_bytes / (block * 4)).
// INVALID_ARGUMENT for another width.
Status LaunchVectorCopy(int word_bytes, const uint8_t* d_in, uint8_t* d_out, int64_t bytes,
                        unsigned grid, unsigned block, cudaStream_t stream);

// The __global__ function for `word_bytes` (nullptr for an unsupported width).
const void* VectorCopyKernel(int word_bytes);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_VECTOR_WIDTH_VECTOR_WIDTH_KERNELS_H_
