// The guide's occupancy calculator (5.2.3), CUDA-free: how many blocks of a kernel fit on one SM
// and which resource limits them. It mirrors the toolkit's cuda_occupancy.h
// (cudaOccMaxActiveBlocksPerMultiprocessor, CUDA 13.0) for compute capabilities 7.5 to 12.x:
// the same per-architecture tables and the same roundings. The engine reports the occupancy API's
// number as the theoretical occupancy and this calculation's limiter; a CPU test checks the
// calculator against the header's own functions, a GPU test against the occupancy API.
#ifndef WARPWATCH_WORKER_OCCUPANCY_OCCUPANCY_CALCULATOR_H_
#define WARPWATCH_WORKER_OCCUPANCY_OCCUPANCY_CALCULATOR_H_

#include <cstdint>

#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::worker {

// The device properties the calculation reads (cudaOccDeviceProp; names of cudaDeviceProp's
// fields in the comments).
struct DeviceResources {
  int major = 9;                                // major
  int minor = 0;                                // minor
  int warp_size = 32;                           // warpSize
  int max_threads_per_block = 1024;             // maxThreadsPerBlock
  int max_threads_per_sm = 2048;                // maxThreadsPerMultiProcessor
  int registers_per_block = 65536;              // regsPerBlock
  int registers_per_sm = 65536;                 // regsPerMultiprocessor
  int64_t shared_per_block = 48 * 1024;         // sharedMemPerBlock
  int64_t shared_per_block_optin = 227 * 1024;  // sharedMemPerBlockOptin
  int64_t shared_per_sm = 228 * 1024;           // sharedMemPerMultiprocessor
  int64_t reserved_shared_per_block = 1024;     // reservedSharedMemPerBlock (CC >= 8.0)
};

// A device's resources plus the per-architecture constants cuda_occupancy.h keeps in its tables.
struct SmLimits {
  DeviceResources device;
  // False when cuda_occupancy.h has no table entry for the compute capability (it returns
  // CUDA_OCC_ERROR_UNKNOWN_DEVICE); the constants are then the nearest known architecture's.
  bool known_architecture = true;
  int max_blocks_per_sm = 32;          // cudaOccMaxBlocksPerMultiprocessor
  int register_allocation_unit = 256;  // registers, allocated per warp
  int max_registers_per_thread = 256;
  int register_sub_partitions = 4;     // a warp's registers come from one SM sub-partition
  int shared_allocation_unit = 128;    // bytes
  // The shared memory an SM gives its blocks under the default carve-out: sharedMemPerMultiprocessor
  // rounded up to the next configuration the architecture supports.
  int64_t shared_per_sm_carveout = 228 * 1024;
  int barrier_slots_per_block_slot = 2;  // block barriers per resident-block slot (CC >= 9.0)
};

// The limits of a device; fills the architecture's constants from (major, minor).
SmLimits SmLimitsFor(const DeviceResources& device);

struct KernelResources {
  int block_threads = 0;
  int registers_per_thread = 0;          // cudaFuncAttributes::numRegs
  int64_t static_shared_bytes = 0;       // cudaFuncAttributes::sharedSizeBytes
  int64_t dynamic_shared_bytes = 0;      // the launch's
  // cudaFuncAttributes::maxDynamicSharedSizeBytes (48 KiB - static unless the kernel opted in);
  // a launch asking for more fits no block. Negative: unknown, not checked.
  int64_t max_dynamic_shared_bytes = -1;
  int block_barriers = 1;                // what cuda_occupancy.h assumes from cudaFuncAttributes
};

struct OccupancyEstimate {
  int blocks_by_warps = 0;
  int blocks_by_registers = 0;
  int blocks_by_shared = 0;
  int blocks_by_block_limit = 0;             // resident-block slots, and block barriers (9.0+)
  int active_blocks = 0;                     // the minimum of the four
  double theoretical = 0;                    // active warps / max warps per SM
  int64_t registers_per_block = 0;           // as allocated: whole warps, rounded per warp
  int64_t shared_per_block = 0;              // as allocated: static + dynamic + reserved, rounded
  v1::OccupancyLimiter limiter = v1::OCCUPANCY_LIMITER_UNSPECIFIED;
};

// The calculator. The limiter is the resource allowing the fewest blocks; on a tie the first of
// warps, registers, shared memory, blocks. A kernel that fits no block (a block over the device's
// thread, register or shared-memory limit per block) has active_blocks 0 and the resource that
// forbids it. An unlimited resource (no registers, no shared memory) reports active_blocks.
OccupancyEstimate EstimateOccupancy(const KernelResources& kernel, const SmLimits& limits);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_OCCUPANCY_OCCUPANCY_CALCULATOR_H_
