// The book's in-place block reductions on global memory. Tail handling: `count` is the number of
// valid ints in the block's first data block after unrolling (blockDim.x except in the last
// block); every step adds a partner only when it is valid, and no thread returns before a
// barrier. The warp-synchronous tails of the book relied on implicit warp lockstep, which Volta's
// independent thread scheduling removed: here every read and write is separated by __syncwarp().
#include "kernels/core/cuda_check.h"
#include "kernels/reduce/reduce_kernels.h"

namespace warpwatch::kernels {
namespace {

__device__ __forceinline__ int ValidCount(int64_t n, int64_t base) {
  const int64_t left = n - base;
  return left < int64_t{blockDim.x} ? static_cast<int>(left) : static_cast<int>(blockDim.x);
}

__global__ void NeighboredKernel(int* __restrict__ data, int64_t n, int* __restrict__ sums) {
  const int tid = threadIdx.x;
  const int64_t base = int64_t{blockIdx.x} * blockDim.x;
  int* idata = data + base;
  const int count = ValidCount(n, base);
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    if ((tid % (2 * stride)) == 0 && tid + stride < count) idata[tid] += idata[tid + stride];
    __syncthreads();
  }
  if (tid == 0) sums[blockIdx.x] = idata[0];
}

__global__ void NeighboredLessKernel(int* __restrict__ data, int64_t n, int* __restrict__ sums) {
  const int tid = threadIdx.x;
  const int64_t base = int64_t{blockIdx.x} * blockDim.x;
  int* idata = data + base;
  const int count = ValidCount(n, base);
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    const int index = 2 * stride * tid;
    if (index + stride < count) idata[index] += idata[index + stride];
    __syncthreads();
  }
  if (tid == 0) sums[blockIdx.x] = idata[0];
}

// Folds the kUnroll data blocks starting at `base` into the first one (in place).
template <int kUnroll>
__device__ __forceinline__ void FoldDataBlocks(int* data, int64_t n, int64_t base) {
  const int64_t idx = base + threadIdx.x;
  const int64_t step = blockDim.x;
  if (idx + (kUnroll - 1) * step < n) {
    int v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) v[k] = data[idx + k * step];
    int s = 0;
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) s += v[k];
    data[idx] = s;
  } else if (idx < n) {
    int s = data[idx];
    for (int k = 1; k < kUnroll; ++k) {
      if (idx + k * step < n) s += data[idx + k * step];
    }
    data[idx] = s;
  }
  __syncthreads();
}

// Interleaved pairs down to (and excluding) stride `last`: the valid prefix of idata shrinks to
// min(count, stride) at each step.
__device__ __forceinline__ void InterleavedSteps(int* idata, int count, int last) {
  const int tid = threadIdx.x;
  for (int stride = blockDim.x / 2; stride > last; stride >>= 1) {
    if (tid < stride && tid + stride < count) idata[tid] += idata[tid + stride];
    __syncthreads();
  }
}

// The book's unrolled last warp (strides 32..1), made safe: every step reads, then __syncwarp,
// then writes, then __syncwarp. Called by all 32 threads of warp 0; valid prefix min(count, 64).
__device__ __forceinline__ void WarpTail(volatile int* idata, int count) {
  const int tid = threadIdx.x;
#pragma unroll
  for (int offset = 32; offset > 0; offset >>= 1) {
    int v = 0;
    if (tid < count) {
      v = idata[tid];
      if (tid + offset < count) v += idata[tid + offset];
    }
    __syncwarp();
    if (tid < count) idata[tid] = v;
    __syncwarp();
  }
}

__global__ void InterleavedKernel(int* __restrict__ data, int64_t n, int* __restrict__ sums) {
  const int64_t base = int64_t{blockIdx.x} * blockDim.x;
  int* idata = data + base;
  InterleavedSteps(idata, ValidCount(n, base), 0);
  if (threadIdx.x == 0) sums[blockIdx.x] = idata[0];
}

template <int kUnroll>
__global__ void UnrollingKernel(int* __restrict__ data, int64_t n, int* __restrict__ sums) {
  const int64_t base = int64_t{blockIdx.x} * blockDim.x * kUnroll;
  FoldDataBlocks<kUnroll>(data, n, base);
  int* idata = data + base;
  InterleavedSteps(idata, ValidCount(n, base), 0);
  if (threadIdx.x == 0) sums[blockIdx.x] = idata[0];
}

__global__ void UnrollWarps8Kernel(int* __restrict__ data, int64_t n, int* __restrict__ sums) {
  const int64_t base = int64_t{blockIdx.x} * blockDim.x * 8;
  FoldDataBlocks<8>(data, n, base);
  int* idata = data + base;
  const int count = ValidCount(n, base);
  InterleavedSteps(idata, count, 32);
  if (threadIdx.x < 32) WarpTail(idata, count);
  if (threadIdx.x == 0) sums[blockIdx.x] = idata[0];
}

// One unrolled in-block step at compile-time stride kStride, taken when the block has at least
// 2 * kStride threads (`block`: blockDim.x, or the template block size).
template <int kStride>
__device__ __forceinline__ void UnrolledStep(int* idata, int count, int block) {
  const int tid = threadIdx.x;
  if (block >= 2 * kStride && tid < kStride && tid + kStride < count) {
    idata[tid] += idata[tid + kStride];
  }
  __syncthreads();
}

__global__ void CompleteUnrollWarps8Kernel(int* __restrict__ data, int64_t n,
                                           int* __restrict__ sums) {
  const int64_t base = int64_t{blockIdx.x} * blockDim.x * 8;
  FoldDataBlocks<8>(data, n, base);
  int* idata = data + base;
  const int count = ValidCount(n, base);
  const int block = blockDim.x;
  UnrolledStep<512>(idata, count, block);
  UnrolledStep<256>(idata, count, block);
  UnrolledStep<128>(idata, count, block);
  UnrolledStep<64>(idata, count, block);
  if (threadIdx.x < 32) WarpTail(idata, count);
  if (threadIdx.x == 0) sums[blockIdx.x] = idata[0];
}

template <int kBlock>
__global__ void CompleteUnrollKernel(int* __restrict__ data, int64_t n, int* __restrict__ sums) {
  const int64_t base = int64_t{blockIdx.x} * kBlock * 8;
  FoldDataBlocks<8>(data, n, base);
  int* idata = data + base;
  const int count = ValidCount(n, base);
  if (kBlock >= 1024) UnrolledStep<512>(idata, count, kBlock);
  if (kBlock >= 512) UnrolledStep<256>(idata, count, kBlock);
  if (kBlock >= 256) UnrolledStep<128>(idata, count, kBlock);
  if (kBlock >= 128) UnrolledStep<64>(idata, count, kBlock);
  if (threadIdx.x < 32) WarpTail(idata, count);
  if (threadIdx.x == 0) sums[blockIdx.x] = idata[0];
}

using ReduceKernelFn = void (*)(int*, int64_t, int*);

ReduceKernelFn CompleteUnrollFor(unsigned block) {
  switch (block) {
    case 32:
      return &CompleteUnrollKernel<32>;
    case 64:
      return &CompleteUnrollKernel<64>;
    case 128:
      return &CompleteUnrollKernel<128>;
    case 256:
      return &CompleteUnrollKernel<256>;
    case 512:
      return &CompleteUnrollKernel<512>;
    case 1024:
      return &CompleteUnrollKernel<1024>;
    default:
      return nullptr;
  }
}

ReduceKernelFn KernelFor(BookReduction kind, unsigned block) {
  switch (kind) {
    case BookReduction::kNeighbored:
      return &NeighboredKernel;
    case BookReduction::kNeighboredLess:
      return &NeighboredLessKernel;
    case BookReduction::kInterleaved:
      return &InterleavedKernel;
    case BookReduction::kUnrolling2:
      return &UnrollingKernel<2>;
    case BookReduction::kUnrolling4:
      return &UnrollingKernel<4>;
    case BookReduction::kUnrolling8:
      return &UnrollingKernel<8>;
    case BookReduction::kUnrollWarps8:
      return &UnrollWarps8Kernel;
    case BookReduction::kCompleteUnrollWarps8:
      return &CompleteUnrollWarps8Kernel;
    case BookReduction::kCompleteUnroll:
      return CompleteUnrollFor(block);
  }
  return nullptr;
}

}  // namespace

int BookReductionUnroll(BookReduction kind) {
  switch (kind) {
    case BookReduction::kNeighbored:
    case BookReduction::kNeighboredLess:
    case BookReduction::kInterleaved:
      return 1;
    case BookReduction::kUnrolling2:
      return 2;
    case BookReduction::kUnrolling4:
      return 4;
    default:
      return 8;
  }
}

const void* BookReductionKernel(BookReduction kind, unsigned block) {
  return reinterpret_cast<const void*>(KernelFor(kind, block));
}

Status LaunchBookReduction(BookReduction kind, int* d_data, int64_t n, int* d_block_sums,
                           unsigned grid, unsigned block, cudaStream_t stream) {
  const bool power_of_two = block >= 32 && block <= 1024 && (block & (block - 1)) == 0;
  ReduceKernelFn kernel = KernelFor(kind, block);
  if (!power_of_two || kernel == nullptr) {
    return InvalidArgumentError("LaunchBookReduction: block must be a power of two in [32, 1024]");
  }
  kernel<<<grid, block, 0, stream>>>(d_data, n, d_block_sums);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
