// reduce kernels behind host launchers: the book's in-place block reductions (Cheng et al.,
// "Professional CUDA C Programming" ch. 3 / Harris), the one-pass warp-shuffle reduction that
// completes every sum on the device, and cub::DeviceReduce::Sum as the reference.
#ifndef WARPWATCH_KERNELS_REDUCE_REDUCE_KERNELS_H_
#define WARPWATCH_KERNELS_REDUCE_REDUCE_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// The book's table, one kernel each.
enum class BookReduction {
  kNeighbored,            // stride doubling, active threads tid % (2*stride) == 0: divergent
  kNeighboredLess,        // stride doubling, active threads compacted to the first ones
  kInterleaved,           // stride halving from blockDim/2
  kUnrolling2,            // each block first folds 2 data blocks into one, then interleaved
  kUnrolling4,            // ... 4 data blocks
  kUnrolling8,            // ... 8 data blocks
  kUnrollWarps8,          // unrolling8 + the last warp unrolled (__syncwarp, not `volatile` alone)
  kCompleteUnrollWarps8,  // unrollwarps8 + the block loop unrolled for blockDim <= 1024
  kCompleteUnroll,        // completeunrollwarps8 with blockDim a template parameter
};

// Data blocks (of blockDim.x ints) each thread block of `kind` reduces: 1, 2, 4 or 8.
int BookReductionUnroll(BookReduction kind);

// In place on d_data[0, n) (destroyed): thread block b sums its BookReductionUnroll(kind) *
// blockDim.x ints and writes the sum to d_block_sums[b]. Any n >= 1 (the last block handles a
// partial tile). block: a power of two in [32, 1024]; grid = ceil(n / (block * unroll)).
Status LaunchBookReduction(BookReduction kind, int* d_data, int64_t n, int* d_block_sums,
                           unsigned grid, unsigned block, cudaStream_t stream);

// The __global__ function LaunchBookReduction launches (block picks kCompleteUnroll's instance);
// nullptr for an unsupported block.
const void* BookReductionKernel(BookReduction kind, unsigned block);

// Ints each thread of the shuffle reduction loads per grid-stride step (two int4).
inline constexpr int kShuffleIntsPerStep = 8;

// *d_out = sum of d_in[0, n), complete on the device in one kernel: a grid-stride loop of int4
// loads, a __shfl_down_sync block reduction, and the last block to finish (atomic ticket in
// *d_done) sums the grid's d_block_sums. Preconditions: d_in 16-byte aligned, d_block_sums holds
// `grid` ints, *d_done == 0 (the kernel leaves it 0 again), block a multiple of 32 <= 1024.
Status LaunchShuffleReduction(const int* d_in, int64_t n, int* d_block_sums, unsigned* d_done,
                              int* d_out, unsigned grid, unsigned block, cudaStream_t stream);

const void* ShuffleReductionKernel();

// Resident blocks per SM of the shuffle reduction at `block` threads (occupancy API).
StatusOr<int> ShuffleReductionBlocksPerSm(unsigned block);

// cub::DeviceReduce::Sum: temporary storage it needs for n ints, and one enqueued sum.
StatusOr<size_t> CubSumTempBytes(int64_t n);
Status LaunchCubSum(void* d_temp, size_t temp_bytes, const int* d_in, int* d_out, int64_t n,
                    cudaStream_t stream);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_REDUCE_REDUCE_KERNELS_H_
