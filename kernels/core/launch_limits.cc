// Device-limit checks for Family::MakeCase.
#include "kernels/core/launch_limits.h"

#include <algorithm>
#include <string>

namespace warpwatch::kernels {

Status CheckBlock(dim3 block, const cudaDeviceProp& prop) {
  const int64_t threads = static_cast<int64_t>(block.x) * block.y * block.z;
  if (threads > prop.maxThreadsPerBlock) {
    return FailedPreconditionError("block of " + std::to_string(threads) +
                                   " threads exceeds the device maximum of " +
                                   std::to_string(prop.maxThreadsPerBlock));
  }
  if (block.x > static_cast<unsigned>(prop.maxThreadsDim[0]) ||
      block.y > static_cast<unsigned>(prop.maxThreadsDim[1]) ||
      block.z > static_cast<unsigned>(prop.maxThreadsDim[2])) {
    return FailedPreconditionError("block dimensions exceed the device's maxThreadsDim");
  }
  return OkStatus();
}

Status CheckSharedBytes(size_t bytes, const cudaDeviceProp& prop) {
  const size_t limit =
      prop.sharedMemPerBlockOptin > 0 ? prop.sharedMemPerBlockOptin : prop.sharedMemPerBlock;
  if (bytes > limit) {
    return FailedPreconditionError(std::to_string(bytes) +
                                   " bytes of shared memory per block exceed the device limit of " +
                                   std::to_string(limit));
  }
  return OkStatus();
}

Status CheckDeviceMemory(double bytes, const cudaDeviceProp& prop) {
  // Leave room for the context, the L2 flush buffer and the allocator's granularity.
  const double usable = 0.9 * static_cast<double>(prop.totalGlobalMem);
  if (bytes > usable) {
    return FailedPreconditionError("buffers of " + std::to_string(static_cast<int64_t>(bytes)) +
                                   " bytes exceed 90% of the device's " +
                                   std::to_string(prop.totalGlobalMem) + " bytes");
  }
  return OkStatus();
}

StatusOr<unsigned> GridFor(int64_t items, int64_t per_block, const cudaDeviceProp& prop) {
  const int64_t blocks = std::max<int64_t>(1, CeilDiv(items, per_block));
  if (blocks > prop.maxGridSize[0]) {
    return FailedPreconditionError("grid of " + std::to_string(blocks) +
                                   " blocks exceeds the device maximum of " +
                                   std::to_string(prop.maxGridSize[0]));
  }
  return static_cast<unsigned>(blocks);
}

unsigned GridStrideBlocks(int64_t items, int64_t per_block, int blocks_per_sm, int sm_count) {
  const int64_t resident =
      static_cast<int64_t>(std::max(1, blocks_per_sm)) * std::max(1, sm_count);
  const int64_t needed = std::max<int64_t>(1, CeilDiv(items, per_block));
  return static_cast<unsigned>(std::min(resident, needed));
}

}  // namespace warpwatch::kernels
