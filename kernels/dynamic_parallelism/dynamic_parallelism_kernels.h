// dynamic_parallelism kernels behind host launchers (notes 001): the book's interleaved reduction
// launched once from the host, and the nested reductions that launch their own child grids from
// the device (gpuRecursiveReduce, its variant without the barrier, gpuRecursiveReduce2). Every
// variant leaves one int per block of `block` inputs in d_block_sums; LaunchFinalSum adds them.
//
// CUDA 12 replaced the device-side cudaDeviceSynchronize() the book's kernels used (CDP2): a
// parent grid still completes only after all its children, so the host-stream order of the final
// sum is enough. Where the book relied on timing for a child to see other threads' writes, these
// kernels use a tail launch (cudaStreamTailLaunch), which starts the child after its whole parent
// grid has finished. Built with relocatable device code, in a library of its own.
// On an H100 (2^20 ints): flat 12.7 us (block 512), nested_2 110 us (9 device-launched grids),
// nested 5.6 ms and nested_nosync 106 ms at block 1024 (1024 blocks x 10 levels of launches).
#ifndef WARPWATCH_KERNELS_DYNAMIC_PARALLELISM_DYNAMIC_PARALLELISM_KERNELS_H_
#define WARPWATCH_KERNELS_DYNAMIC_PARALLELISM_DYNAMIC_PARALLELISM_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class NestedReduction {
  kFlat,          // interleaved reduction per block, launched once from the host
  kNested,        // per block: halve, __syncthreads(), thread 0 launches <<<1, half>>>
  kNestedNoSync,  // the same without the barrier; the child is a tail launch
  kNested2,       // per level: every block halves, block 0 launches the next level (tail)
};

// Reduces d_data (grid * block ints, in place: it is overwritten) to d_block_sums[b] = the sum of
// block b's `block` ints. block: a power of two >= 2. Enqueued on `stream`; checks the launch. A
// device-side launch that fails stores its cudaError_t in *d_launch_error (the first one; the
// caller clears it to 0 before the run) and leaves that block's sum wrong.
Status LaunchNestedReduction(NestedReduction kind, int* d_data, int* d_block_sums,
                             int* d_launch_error, unsigned grid, unsigned block,
                             cudaStream_t stream);

// Device launches that can be pending at once (a child grid stays pending until it and its own
// children finish): grid * (log2(block) + 1) for the per-block recursions, log2(block) + 1 for
// kNested2 (at most 2^20). cudaLimitDevRuntimePendingLaunchCount must be at least this (default
// 2048: on the H100 the per-block recursions failed verification from 2048 top-level blocks on).
int64_t NestedPendingLaunches(NestedReduction kind, unsigned grid, unsigned block);

// *d_result = sum of d_block_sums[0, count), one block. Enqueued on `stream`; checks the launch.
Status LaunchFinalSum(const int* d_block_sums, unsigned count, int* d_result, cudaStream_t stream);

// The host-launched kernel of `kind` and its block size (block / 2 for kNested2).
const void* NestedReductionKernel(NestedReduction kind);
unsigned NestedReductionBlock(NestedReduction kind, unsigned block);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_DYNAMIC_PARALLELISM_DYNAMIC_PARALLELISM_KERNELS_H_
