// Grid-stride fill kernels behind the seeded_fill.h launchers.
#include "kernels/core/cuda_check.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {
namespace {

constexpr int kFillBlock = 256;
constexpr unsigned kFillMaxBlocks = 4096;

unsigned FillBlocks(size_t n) {
  const size_t blocks = (n + kFillBlock - 1) / kFillBlock;
  return static_cast<unsigned>(blocks < kFillMaxBlocks ? (blocks > 0 ? blocks : 1) : kFillMaxBlocks);
}

__global__ void FillFloatsKernel(float* out, size_t n, size_t stride, size_t field, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x) {
    out[i * stride + field] = SeededFloat(seed, i);
  }
}

__global__ void FillIntsKernel(int* out, size_t n, uint64_t seed, int max_value) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x) {
    out[i] = SeededInt(seed, i, max_value);
  }
}

__global__ void FillBytesKernel(uint8_t* out, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x) {
    out[i] = SeededByte(seed, i);
  }
}

}  // namespace

Status FillSeededFloats(float* d_out, size_t n, uint64_t seed, cudaStream_t stream) {
  return FillSeededFloatsStrided(d_out, n, 1, 0, seed, stream);
}

Status FillSeededFloatsStrided(float* d_out, size_t n, size_t stride_floats, size_t field,
                               uint64_t seed, cudaStream_t stream) {
  if (n == 0) return OkStatus();
  FillFloatsKernel<<<FillBlocks(n), kFillBlock, 0, stream>>>(d_out, n, stride_floats, field, seed);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

Status FillSeededInts(int* d_out, size_t n, uint64_t seed, int max_value, cudaStream_t stream) {
  if (n == 0) return OkStatus();
  if (max_value < 1) return InvalidArgumentError("FillSeededInts: max_value must be >= 1");
  FillIntsKernel<<<FillBlocks(n), kFillBlock, 0, stream>>>(d_out, n, seed, max_value);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

Status FillSeededBytes(uint8_t* d_out, size_t n, uint64_t seed, cudaStream_t stream) {
  if (n == 0) return OkStatus();
  FillBytesKernel<<<FillBlocks(n), kFillBlock, 0, stream>>>(d_out, n, seed);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
