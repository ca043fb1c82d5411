// memory.alignment kernels behind host launchers: one contiguous float copy whose reads start
// `offset` elements into the input, so the only difference the timings show is where a warp's
// 128-byte read falls relative to the 32-byte sectors and 128-byte lines.
#ifndef WARPWATCH_KERNELS_MEMORY_ALIGNMENT_ALIGNMENT_KERNELS_H_
#define WARPWATCH_KERNELS_MEMORY_ALIGNMENT_ALIGNMENT_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// Elements each thread copies, as that many consecutive virtual blocks (as memory.coalescing
// does): the independent loads in flight that let a copy reach the DRAM bandwidth.
inline constexpr int kAlignmentElementsPerThread = 4;

// The largest offset the family reads at; the input holds n + kAlignmentMaxOffset floats.
inline constexpr int64_t kAlignmentMaxOffset = 32;

// out[i] = in[i + offset] for i in [0, n). d_in comes from cudaMalloc (256-byte aligned), so
// offset 0 and 32 start warps on 128-byte lines, 8 and 16 on 32-byte sectors, others inside one.
// Preconditions: 0 <= offset <= kAlignmentMaxOffset, d_in holds n + offset floats, grid =
// ceil(n / (block * kAlignmentElementsPerThread)). Enqueued on `stream`; checks the launch.
Status LaunchAlignmentCopy(const float* d_in, float* d_out, int64_t n, int64_t offset,
                           unsigned grid, unsigned block, cudaStream_t stream);

// The __global__ function LaunchAlignmentCopy launches (for occupancy queries).
const void* AlignmentKernel();

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_ALIGNMENT_ALIGNMENT_KERNELS_H_
