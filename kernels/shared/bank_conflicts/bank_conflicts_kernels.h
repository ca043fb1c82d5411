// shared.bank_conflicts kernels behind host launchers: every thread sums kBankReadsPerThread
// words of a shared-memory table, lane l of each warp reading word l*stride + 32*m for a
// compile-time m per read. Adding a multiple of 32 words keeps each lane in its bank, so every
// warp-wide read meets the same conflicts: none for stride 1 (or any odd stride), gcd(stride,
// 32)-way otherwise, and none for stride 0, where all 32 lanes read one word (a broadcast).
#ifndef WARPWATCH_KERNELS_SHARED_BANK_CONFLICTS_BANK_CONFLICTS_KERNELS_H_
#define WARPWATCH_KERNELS_SHARED_BANK_CONFLICTS_BANK_CONFLICTS_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// Reads per thread: kBankOuterSteps steps of kBankInnerReads unrolled reads, step j reading rows
// (j % kBankRowCycle) + k, k in [0, kBankInnerReads), of 32 words above the lane's start.
inline constexpr int kBankInnerReads = 32;
inline constexpr int kBankOuterSteps = 32;
inline constexpr int kBankRowCycle = 8;
inline constexpr int64_t kBankReadsPerThread = int64_t{kBankInnerReads} * kBankOuterSteps;
inline constexpr int kBankMaxStride = 32;

// Words of the table each block copies into shared memory: lane 31 at stride 32 plus the rows.
inline constexpr int kBankTableWords = 31 * kBankMaxStride + 32 * (kBankRowCycle + kBankInnerReads);

// Word of the table lane `lane` reads in read k of step j (the CPU reference uses the same map).
constexpr int BankWord(int lane, int stride, int j, int k) {
  return lane * stride + 32 * (j % kBankRowCycle + k);
}

// out[t] = sum over j, k (in that order, float adds) of d_table[BankWord(t % 32, stride, j, k)]
// for t in [0, threads). Preconditions: 0 <= stride <= kBankMaxStride, d_table holds
// kBankTableWords floats, block a multiple of 32, grid = ceil(threads / block). Enqueued on
// `stream`; checks the launch.
Status LaunchBankConflictReads(const float* d_table, float* d_out, int64_t threads, int stride,
                               unsigned grid, unsigned block, cudaStream_t stream);

// The __global__ function LaunchBankConflictReads launches (for occupancy queries).
const void* BankConflictKernel();

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_SHARED_BANK_CONFLICTS_BANK_CONFLICTS_KERNELS_H_
