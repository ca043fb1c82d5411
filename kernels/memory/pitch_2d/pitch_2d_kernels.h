// memory.pitch_2d kernels behind host launchers: a scaled copy of a width x height float matrix
// whose rows sit `pitch` elements apart. Packed rows (pitch = width) start wherever the previous
// row ended; cudaMallocPitch rows start on the allocator's alignment, so each warp's row segment
// starts on a 32-byte sector.
#ifndef WARPWATCH_KERNELS_MEMORY_PITCH_2D_PITCH_2D_KERNELS_H_
#define WARPWATCH_KERNELS_MEMORY_PITCH_2D_PITCH_2D_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// Rows per grid row of blocks at most (gridDim.y's limit); taller matrices loop.
inline constexpr unsigned kPitch2dMaxGridRows = 65535;

// out[y * pitch + x] = 2 * in[y * pitch + x] for x < width, y < height; padding is not touched.
// Preconditions: pitch >= width (elements); grid = (ceil(width / block), min(height,
// kPitch2dMaxGridRows)). Enqueued on `stream`; checks the launch.
Status LaunchPitch2dScale(const float* d_in, float* d_out, int64_t width, int64_t height,
                          int64_t pitch, dim3 grid, unsigned block, cudaStream_t stream);

// The __global__ function LaunchPitch2dScale launches (for occupancy queries).
const void* Pitch2dKernel();

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_PITCH_2D_PITCH_2D_KERNELS_H_
