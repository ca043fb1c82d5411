// instr.syncthreads kernels behind host launchers: one loop in which neighbouring threads
// exchange a value through shared memory every iteration, separated by __syncthreads(), by
// __syncwarp() (enough: the partner is in the same warp), or by nothing (each thread reads its own
// slot: the same memory traffic without a barrier, the floor).
#ifndef WARPWATCH_KERNELS_INSTR_SYNCTHREADS_SYNCTHREADS_KERNELS_H_
#define WARPWATCH_KERNELS_INSTR_SYNCTHREADS_SYNCTHREADS_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// On an H100 (2^20 threads, 256 iterations): __syncthreads() 101 us at 1024 threads per block and
// 107 us at 128, __syncwarp() 76 us, no barrier 73 us; warps stalled on the barrier 8.4 per issue.
// Block size barely matters here, where every warp does the same work between barriers.
enum class BarrierKind { kSyncthreads, kSyncwarp, kNone };

inline constexpr int kBarrierIterations = 256;

// Dynamic shared memory the kernel needs: two buffers of one uint32 per thread.
inline size_t BarrierSharedBytes(unsigned block) { return 2 * sizeof(uint32_t) * block; }

// Every thread of the grid (also those >= n, which start at 0 and store nothing) runs
// kBarrierIterations iterations of: write v to this iteration's buffer, barrier, v = 3v +
// buffer[partner] + i (partner: threadIdx ^ 1, or threadIdx for kNone). Thread t < n starts
// from the bits of d_in[t] and stores v as a double. block even; grid = ceil(n / block).
Status LaunchBarrierLoop(BarrierKind kind, const float* d_in, double* d_out, int64_t n,
                         unsigned grid, unsigned block, cudaStream_t stream);
const void* BarrierKernel(BarrierKind kind);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_SYNCTHREADS_SYNCTHREADS_KERNELS_H_
