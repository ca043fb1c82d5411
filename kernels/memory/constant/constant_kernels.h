// memory.constant kernels behind host launchers: every thread folds kConstantReads words of a
// kConstantTableWords-float table, word (base + r) % kConstantTableWords at read r. The base is
// the same for a whole warp (uniform: one address per warp-wide read, which the constant cache
// broadcasts) or differs per lane (divergent: 32 addresses per read, which the constant cache
// serves one at a time); global_divergent reads the divergent words from a global-memory copy.
#ifndef WARPWATCH_KERNELS_MEMORY_CONSTANT_CONSTANT_KERNELS_H_
#define WARPWATCH_KERNELS_MEMORY_CONSTANT_CONSTANT_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

inline constexpr int kConstantTableWords = 1024;  // 4 KiB, well inside the 64 KiB bank
inline constexpr int kConstantReads = 64;

enum class ConstantAccess {
  kConstantUniform,    // base = 8 * blockIdx.x: one word per warp-wide read
  kConstantDivergent,  // base = 8 * blockIdx.x + threadIdx.x: 32 words per warp-wide read
  kGlobalDivergent,    // the divergent words, read from global memory
};

// First word thread `thread` of block `block` reads under `access`.
constexpr int64_t ConstantBase(ConstantAccess access, int64_t block, int64_t thread) {
  return 8 * block + (access == ConstantAccess::kConstantUniform ? 0 : thread);
}

// Copies kConstantTableWords floats from device memory d_table into the kernels' __constant__
// table (one table per process: cases using it must not run concurrently, which the engine's one
// case at a time guarantees). Enqueued on `stream`.
Status UploadConstantTable(const float* d_table, cudaStream_t stream);

// out[i] = fold (acc <- acc / 2 + word, from 0) of the table words ConstantBase(access, i / block,
// i % block) + r, r in [0, kConstantReads), modulo kConstantTableWords, for i in [0, n).
// kGlobalDivergent reads d_table (kConstantTableWords floats), the others the __constant__ table.
// Precondition: grid = ceil(n / block). Enqueued on `stream`; checks the launch.
Status LaunchConstantReads(ConstantAccess access, const float* d_table, float* d_out, int64_t n,
                           unsigned grid, unsigned block, cudaStream_t stream);

// The __global__ function LaunchConstantReads launches for `access` (for occupancy queries).
const void* ConstantKernel(ConstantAccess access);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_CONSTANT_CONSTANT_KERNELS_H_
