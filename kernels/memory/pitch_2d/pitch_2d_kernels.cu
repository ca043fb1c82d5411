// The memory.pitch_2d kernel: packed and pitched variants run the same code with their pitch.
#include "kernels/core/cuda_check.h"
#include "kernels/memory/pitch_2d/pitch_2d_kernels.h"

namespace warpwatch::kernels {
namespace {

__global__ void Pitch2dScaleKernel(const float* __restrict__ in, float* __restrict__ out,
                                   int64_t width, int64_t height, int64_t pitch) {
  const int64_t x = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (x >= width) return;
  for (int64_t y = blockIdx.y; y < height; y += gridDim.y) {
    const int64_t at = y * pitch + x;
    out[at] = 2.0f * in[at];
  }
}

}  // namespace

const void* Pitch2dKernel() { return reinterpret_cast<const void*>(&Pitch2dScaleKernel); }

Status LaunchPitch2dScale(const float* d_in, float* d_out, int64_t width, int64_t height,
                          int64_t pitch, dim3 grid, unsigned block, cudaStream_t stream) {
  Pitch2dScaleKernel<<<grid, block, 0, stream>>>(d_in, d_out, width, height, pitch);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
