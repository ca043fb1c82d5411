// transfer.host_device's one kernel: the zero-copy reader of mapped (cudaHostAllocMapped) host
// memory, which pulls every byte over the host link itself instead of a copy engine.
#ifndef WARPWATCH_KERNELS_TRANSFER_HOST_DEVICE_HOST_DEVICE_KERNELS_H_
#define WARPWATCH_KERNELS_TRANSFER_HOST_DEVICE_HOST_DEVICE_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// Threads per block of the mapped reader.
inline constexpr unsigned kMappedCopyBlock = 256;

// d_dst[i] = d_mapped_src[i] for `bytes` bytes (a multiple of 16; both 16-byte aligned), with
// 16-byte loads in a grid-stride loop of `grid` blocks. Enqueued on `stream`; checks the launch.
Status LaunchMappedCopy(const void* d_mapped_src, void* d_dst, int64_t bytes, unsigned grid,
                        cudaStream_t stream);
const void* MappedCopyKernel();

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_TRANSFER_HOST_DEVICE_HOST_DEVICE_KERNELS_H_
