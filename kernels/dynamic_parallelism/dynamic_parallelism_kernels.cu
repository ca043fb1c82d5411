// The dynamic_parallelism kernels (relocatable device code: they launch kernels themselves).
#include "kernels/core/cuda_check.h"
#include "kernels/dynamic_parallelism/dynamic_parallelism_kernels.h"

namespace warpwatch::kernels {
namespace {

constexpr unsigned kFinalBlock = 1024;

// The book's reduceInterleaved: in place, one block of blockDim.x ints per block.
__global__ void FlatInterleaved(int* g_idata, int* g_odata) {
  const unsigned tid = threadIdx.x;
  int* idata = g_idata + blockIdx.x * blockDim.x;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) idata[tid] += idata[tid + stride];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

// gpuRecursiveReduce: each level halves the block's ints and launches a child for the half.
template <bool kBarrier>
__global__ void NestedReduce(int* g_idata, int* g_odata, unsigned isize) {
  const unsigned tid = threadIdx.x;
  int* idata = g_idata + blockIdx.x * blockDim.x;
  int* odata = &g_odata[blockIdx.x];
  if (isize == 2 && tid == 0) {
    *odata = idata[0] + idata[1];
    return;
  }
  const unsigned istride = isize >> 1;
  if (istride > 1 && tid < istride) idata[tid] += idata[tid + istride];
  if constexpr (kBarrier) {
    __syncthreads();  // the child sees the whole block's writes (guide: CDP memory coherence)
    if (tid == 0) NestedReduce<true><<<1, istride>>>(idata, odata, istride);
  } else {
    if (tid == 0)
      NestedReduce<false><<<1, istride, 0, cudaStreamTailLaunch>>>(idata, odata, istride);
  }
}

// gpuRecursiveReduce2: every level is one grid over all blocks; block 0 launches the next.
__global__ void NestedReduce2(int* g_idata, int* g_odata, int istride, int idim) {
  int* idata = g_idata + blockIdx.x * idim;
  if (istride == 1 && threadIdx.x == 0) {
    g_odata[blockIdx.x] = idata[0] + idata[1];
    return;
  }
  idata[threadIdx.x] += idata[threadIdx.x + istride];
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    NestedReduce2<<<gridDim.x, istride / 2, 0, cudaStreamTailLaunch>>>(g_idata, g_odata,
                                                                       istride / 2, idim);
  }
}

__global__ void FinalSum(const int* __restrict__ sums, unsigned count, int* __restrict__ result) {
  __shared__ int partial[kFinalBlock];
  int s = 0;
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) s += sums[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = partial[0];
}

}  // namespace

const void* NestedReductionKernel(NestedReduction kind) {
  switch (kind) {
    case NestedReduction::kFlat:
      return reinterpret_cast<const void*>(&FlatInterleaved);
    case NestedReduction::kNested:
      return reinterpret_cast<const void*>(&NestedReduce<true>);
    case NestedReduction::kNestedNoSync:
      return reinterpret_cast<const void*>(&NestedReduce<false>);
    case NestedReduction::kNested2:
      return reinterpret_cast<const void*>(&NestedReduce2);
  }
  return nullptr;
}

unsigned NestedReductionBlock(NestedReduction kind, unsigned block) {
  return kind == NestedReduction::kNested2 ? block / 2 : block;
}

Status LaunchNestedReduction(NestedReduction kind, int* d_data, int* d_block_sums, unsigned grid,
                             unsigned block, cudaStream_t stream) {
  switch (kind) {
    case NestedReduction::kFlat:
      FlatInterleaved<<<grid, block, 0, stream>>>(d_data, d_block_sums);
      break;
    case NestedReduction::kNested:
      NestedReduce<true><<<grid, block, 0, stream>>>(d_data, d_block_sums, block);
      break;
    case NestedReduction::kNestedNoSync:
      NestedReduce<false><<<grid, block, 0, stream>>>(d_data, d_block_sums, block);
      break;
    case NestedReduction::kNested2:
      NestedReduce2<<<grid, block / 2, 0, stream>>>(
          d_data, d_block_sums, static_cast<int>(block / 2), static_cast<int>(block));
      break;
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

Status LaunchFinalSum(const int* d_block_sums, unsigned count, int* d_result, cudaStream_t stream) {
  FinalSum<<<1, kFinalBlock, 0, stream>>>(d_block_sums, count, d_result);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
