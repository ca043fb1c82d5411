// The memory.vector_width copy kernel, instantiated per word type.
#include <string>

#include "kernels/core/cuda_check.h"
#include "kernels/memory/vector_width/vector_width_kernels.h"

namespace warpwatch::kernels {
namespace {

constexpr int kIlp = kVectorWordsPerThread;

template <typename Word>
__global__ void VectorCopyWordsKernel(const uint8_t* __restrict__ in_bytes,
                                      uint8_t* __restrict__ out_bytes, int64_t bytes) {
  const Word* __restrict__ in = reinterpret_cast<const Word*>(in_bytes);
  Word* __restrict__ out = reinterpret_cast<Word*>(out_bytes);
  const int64_t words = bytes / static_cast<int64_t>(sizeof(Word));
  const int64_t first = int64_t{blockIdx.x} * kIlp * blockDim.x + threadIdx.x;
  Word value[kIlp];
#pragma unroll
  for (int k = 0; k < kIlp; ++k) {
    const int64_t i = first + int64_t{k} * blockDim.x;
    if (i < words) value[k] = in[i];
  }
#pragma unroll
  for (int k = 0; k < kIlp; ++k) {
    const int64_t i = first + int64_t{k} * blockDim.x;
    if (i < words) out[i] = value[k];
  }
  if (blockIdx.x == gridDim.x - 1) {  // bytes after the last whole word
    for (int64_t b = words * static_cast<int64_t>(sizeof(Word)) + threadIdx.x; b < bytes;
         b += blockDim.x) {
      out_bytes[b] = in_bytes[b];
    }
  }
}

template <typename Word>
Status Launch(const uint8_t* d_in, uint8_t* d_out, int64_t bytes, unsigned grid, unsigned block,
              cudaStream_t stream) {
  VectorCopyWordsKernel<Word><<<grid, block, 0, stream>>>(d_in, d_out, bytes);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace

const void* VectorCopyKernel(int word_bytes) {
  switch (word_bytes) {
    case 1:
      return reinterpret_cast<const void*>(&VectorCopyWordsKernel<uint8_t>);
    case 2:
      return reinterpret_cast<const void*>(&VectorCopyWordsKernel<uint16_t>);
    case 4:
      return reinterpret_cast<const void*>(&VectorCopyWordsKernel<uint32_t>);
    case 8:
      return reinterpret_cast<const void*>(&VectorCopyWordsKernel<uint2>);
    case 16:
      return reinterpret_cast<const void*>(&VectorCopyWordsKernel<uint4>);
    default:
      return nullptr;
  }
}

Status LaunchVectorCopy(int word_bytes, const uint8_t* d_in, uint8_t* d_out, int64_t bytes,
                        unsigned grid, unsigned block, cudaStream_t stream) {
  switch (word_bytes) {
    case 1:
      return Launch<uint8_t>(d_in, d_out, bytes, grid, block, stream);
    case 2:
      return Launch<uint16_t>(d_in, d_out, bytes, grid, block, stream);
    case 4:
      return Launch<uint32_t>(d_in, d_out, bytes, grid, block, stream);
    case 8:
      return Launch<uint2>(d_in, d_out, bytes, grid, block, stream);
    case 16:
      return Launch<uint4>(d_in, d_out, bytes, grid, block, stream);
    default:
      return InvalidArgumentError("LaunchVectorCopy: unsupported word size " +
                                  std::to_string(word_bytes));
  }
}

}  // namespace warpwatch::kernels
