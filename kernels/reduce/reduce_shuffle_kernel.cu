// The one-pass reduction: grid-stride int4 loads with two loads in flight per thread, a warp-
// shuffle block sum, and the last block to finish summing the block totals (threadFenceReduction
// pattern), so the whole sum is on the device after one launch, as with CUB.
#include "kernels/core/cuda_check.h"
#include "kernels/reduce/reduce_kernels.h"

namespace warpwatch::kernels {
namespace {

__device__ __forceinline__ int WarpSum(int v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Sum over the block, valid in thread 0. All threads must call it; it ends with no pending reads
// of `warp_sums`, but callers must __syncthreads() between two calls.
__device__ __forceinline__ int BlockSum(int v, int* warp_sums) {
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  v = WarpSum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < static_cast<int>(blockDim.x >> 5) ? warp_sums[lane] : 0;
    v = WarpSum(v);
  }
  return v;
}

__global__ void ShuffleReduceKernel(const int* __restrict__ in, int64_t n,
                                    int* __restrict__ block_sums, unsigned* __restrict__ done,
                                    int* __restrict__ out) {
  __shared__ int warp_sums[32];
  __shared__ bool is_last;
  const int4* __restrict__ in4 = reinterpret_cast<const int4*>(in);
  const int64_t n4 = n / 4;
  const int64_t stride = int64_t{gridDim.x} * blockDim.x;
  int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  int sum = 0;
  for (; i + stride < n4; i += 2 * stride) {
    const int4 a = in4[i];
    const int4 b = in4[i + stride];
    sum += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w));
  }
  if (i < n4) {
    const int4 a = in4[i];
    sum += (a.x + a.y) + (a.z + a.w);
  }
  if (blockIdx.x == 0 && threadIdx.x < n - n4 * 4) sum += in[n4 * 4 + threadIdx.x];

  sum = BlockSum(sum, warp_sums);
  if (threadIdx.x == 0) {
    block_sums[blockIdx.x] = sum;
    __threadfence();  // the sum is visible device-wide before the ticket is taken
    is_last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last) return;

  int total = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) total += __ldcg(&block_sums[b]);
  total = BlockSum(total, warp_sums);
  if (threadIdx.x == 0) {
    *out = total;
    *done = 0;  // ready for the next launch
  }
}

}  // namespace

const void* ShuffleReductionKernel() { return reinterpret_cast<const void*>(&ShuffleReduceKernel); }

StatusOr<int> ShuffleReductionBlocksPerSm(unsigned block) {
  int blocks = 0;
  CUDA_RETURN_IF_ERROR(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, ShuffleReduceKernel, block, 0));
  return blocks;
}

Status LaunchShuffleReduction(const int* d_in, int64_t n, int* d_block_sums, unsigned* d_done,
                              int* d_out, unsigned grid, unsigned block, cudaStream_t stream) {
  if (block % 32 != 0 || block > 1024) {
    return InvalidArgumentError("LaunchShuffleReduction: block must be a multiple of 32 <= 1024");
  }
  ShuffleReduceKernel<<<grid, block, 0, stream>>>(d_in, n, d_block_sums, d_done, d_out);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
