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

// After a device-side launch: keeps the first error, for Verify to report.
__device__ void RecordLaunchError(int* launch_error) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) atomicCAS(launch_error, 0, static_cast<int>(e));
}

// gpuRecursiveReduce: each level halves the block's ints and launches a child for the half.
template <bool kBarrier>
__global__ void NestedReduce(int* g_idata, int* g_odata, unsigned isize, int* launch_error) {
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
    if (tid == 0) {
      NestedReduce<true><<<1, istride>>>(idata, odata, istride, launch_error);
      RecordLaunchError(launch_error);
    }
  } else {
    if (tid == 0) {
      NestedReduce<false>
          <<<1, istride, 0, cudaStreamTailLaunch>>>(idata, odata, istride, launch_error);
      RecordLaunchError(launch_error);
    }
  }
}

// gpuRecursiveReduce2: every level is one grid over all blocks; block 0 launches the next.
__global__ void NestedReduce2(int* g_idata, int* g_odata, int istride, int idim,
                              int* launch_error) {
  int* idata = g_idata + blockIdx.x * idim;
  if (istride == 1 && threadIdx.x == 0) {
    g_odata[blockIdx.x] = idata[0] + idata[1];
    return;
  }
  idata[threadIdx.x] += idata[threadIdx.x + istride];
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    NestedReduce2<<<gridDim.x, istride / 2, 0, cudaStreamTailLaunch>>>(
        g_idata, g_odata, istride / 2, idim, launch_error);
    RecordLaunchError(launch_error);
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

int64_t NestedPendingLaunches(NestedReduction kind, unsigned grid, unsigned block) {
  int64_t depth = 0;
  for (unsigned b = block; b > 1; b >>= 1) ++depth;
  if (kind == NestedReduction::kFlat) return 0;
  if (kind == NestedReduction::kNested2) return depth + 1;
  // Capped: each pending slot reserves device memory; a sweep past the cap reports the device's
  // launch error (RecordLaunchError) instead of a wrong sum.
  constexpr int64_t kMaxPending = int64_t{1} << 20;
  const int64_t pending = int64_t{grid} * (depth + 1);
  return pending < kMaxPending ? pending : kMaxPending;
}

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

Status LaunchNestedReduction(NestedReduction kind, int* d_data, int* d_block_sums,
                             int* d_launch_error, unsigned grid, unsigned block,
                             cudaStream_t stream) {
  switch (kind) {
    case NestedReduction::kFlat:
      FlatInterleaved<<<grid, block, 0, stream>>>(d_data, d_block_sums);
      break;
    case NestedReduction::kNested:
      NestedReduce<true><<<grid, block, 0, stream>>>(d_data, d_block_sums, block, d_launch_error);
      break;
    case NestedReduction::kNestedNoSync:
      NestedReduce<false><<<grid, block, 0, stream>>>(d_data, d_block_sums, block, d_launch_error);
      break;
    case NestedReduction::kNested2:
      NestedReduce2<<<grid, block / 2, 0, stream>>>(d_data, d_block_sums,
                                                    static_cast<int>(block / 2),
                                                    static_cast<int>(block), d_launch_error);
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
