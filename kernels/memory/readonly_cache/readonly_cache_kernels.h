// memory.readonly_cache kernels behind host launchers: one gather out[i] = in[idx[i]] through
// three load paths. idx[i] falls in the kReadonlyWindow-float window that contains i, at a
// seeded pseudo-random place: the irregular reads with reuse that the read-only and texture
// paths were made for.
#ifndef WARPWATCH_KERNELS_MEMORY_READONLY_CACHE_READONLY_CACHE_KERNELS_H_
#define WARPWATCH_KERNELS_MEMORY_READONLY_CACHE_READONLY_CACHE_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

// Floats in a gather window (8 KiB): every float of it is read about once per pass over its
// kReadonlyWindow outputs, each 32-byte sector about 8 times, in an order no coalescer can merge.
inline constexpr int64_t kReadonlyWindow = 2048;

enum class ReadonlyPath {
  kPlain,    // plain loads through pointers the compiler cannot prove read-only
  kLdg,      // __ldg on const __restrict__ pointers: the read-only (non-coherent) path
  kTexture,  // tex1Dfetch on a texture object over the same buffer
};

// The gather index of output i (< n): a seeded place in i's window, clipped to [0, n).
WW_HOST_DEVICE inline int ReadonlyGatherIndex(uint64_t seed, int64_t i, int64_t n) {
  const int64_t window_start = i - i % kReadonlyWindow;
  const int64_t window = n - window_start < kReadonlyWindow ? n - window_start : kReadonlyWindow;
  return static_cast<int>(window_start +
                          static_cast<int64_t>(SeededHash(seed, static_cast<uint64_t>(i)) %
                                               static_cast<uint64_t>(window)));
}

// d_idx[i] = ReadonlyGatherIndex(seed, i, n) for i in [0, n). Enqueued on `stream`.
Status FillReadonlyIndices(int* d_idx, int64_t n, uint64_t seed, cudaStream_t stream);

// A texture object reading d_in (n floats, n <= the device's maxTexture1DLinear) as 1D linear
// memory with element fetches. The caller destroys it (cudaDestroyTextureObject).
StatusOr<cudaTextureObject_t> MakeReadonlyTexture(const float* d_in, int64_t n);

// out[i] = in[idx[i]] for i in [0, n) through `path` (kTexture reads through `texture`, which
// must view d_in). Precondition: grid = ceil(n / block). Enqueued on `stream`; checks the launch.
Status LaunchReadonlyGather(ReadonlyPath path, const float* d_in, cudaTextureObject_t texture,
                            const int* d_idx, float* d_out, int64_t n, unsigned grid,
                            unsigned block, cudaStream_t stream);

// The __global__ function LaunchReadonlyGather launches for `path` (for occupancy queries).
const void* ReadonlyGatherKernel(ReadonlyPath path);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_READONLY_CACHE_READONLY_CACHE_KERNELS_H_
