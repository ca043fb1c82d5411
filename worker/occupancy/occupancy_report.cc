// Theoretical occupancy from the CUDA runtime.
#include "worker/occupancy/occupancy_report.h"

#include "kernels/core/cuda_check.h"

namespace warpwatch::worker {

SmLimits SmLimitsOf(const cudaDeviceProp& prop) {
  DeviceResources d;
  d.major = prop.major;
  d.minor = prop.minor;
  d.warp_size = prop.warpSize;
  d.max_threads_per_block = prop.maxThreadsPerBlock;
  d.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  d.registers_per_block = prop.regsPerBlock;
  d.registers_per_sm = prop.regsPerMultiprocessor;
  d.shared_per_block = static_cast<int64_t>(prop.sharedMemPerBlock);
  d.shared_per_block_optin = static_cast<int64_t>(prop.sharedMemPerBlockOptin);
  d.shared_per_sm = static_cast<int64_t>(prop.sharedMemPerMultiprocessor);
  d.reserved_shared_per_block = static_cast<int64_t>(prop.reservedSharedMemPerBlock);
  return SmLimitsFor(d);
}

KernelResources KernelResourcesOf(const cudaFuncAttributes& attr, int block_threads,
                                  size_t dynamic_shared_bytes) {
  KernelResources k;
  k.block_threads = block_threads;
  k.registers_per_thread = attr.numRegs;
  k.static_shared_bytes = static_cast<int64_t>(attr.sharedSizeBytes);
  k.dynamic_shared_bytes = static_cast<int64_t>(dynamic_shared_bytes);
  k.max_dynamic_shared_bytes = attr.maxDynamicSharedSizeBytes;
  return k;
}

StatusOr<v1::Occupancy> TheoreticalOccupancy(const kernels::LaunchShape& shape,
                                             const cudaDeviceProp& prop) {
  if (shape.function == nullptr) return InvalidArgumentError("launch shape has no function");
  cudaFuncAttributes attr;
  CUDA_RETURN_IF_ERROR(cudaFuncGetAttributes(&attr, shape.function));
  const int block = static_cast<int>(shape.block.x * shape.block.y * shape.block.z);
  int active_blocks = 0;
  CUDA_RETURN_IF_ERROR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &active_blocks, shape.function, block, shape.dynamic_shared_bytes));

  v1::Occupancy o;
  o.set_block_size(block);
  o.set_grid_size(static_cast<int64_t>(shape.grid.x) * shape.grid.y * shape.grid.z);
  o.set_registers_per_thread(attr.numRegs);
  o.set_static_shared_bytes(static_cast<int64_t>(attr.sharedSizeBytes));
  o.set_dynamic_shared_bytes(static_cast<int64_t>(shape.dynamic_shared_bytes));
  o.set_local_bytes_per_thread(static_cast<int64_t>(attr.localSizeBytes));
  o.set_max_threads_per_block(attr.maxThreadsPerBlock);
  o.set_active_blocks_per_sm(active_blocks);
  const int warps_per_block = (block + prop.warpSize - 1) / prop.warpSize;
  const int max_warps = prop.maxThreadsPerMultiProcessor / prop.warpSize;
  o.set_theoretical(max_warps > 0 ? static_cast<double>(active_blocks * warps_per_block) / max_warps
                                  : 0.0);
  o.set_limiter(EstimateOccupancy(KernelResourcesOf(attr, block, shape.dynamic_shared_bytes),
                                  SmLimitsOf(prop))
                    .limiter);
  return o;
}

}  // namespace warpwatch::worker
