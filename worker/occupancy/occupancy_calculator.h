// The guide's occupancy calculator (5.2.3), CUDA-free: how many blocks of a kernel fit on one SM
// and which resource limits them. The engine reports the occupancy API's number as the
// theoretical occupancy and this calculation's limiter; a GPU test checks that both agree.
#ifndef WARPWATCH_WORKER_OCCUPANCY_OCCUPANCY_CALCULATOR_H_
#define WARPWATCH_WORKER_OCCUPANCY_OCCUPANCY_CALCULATOR_H_

#include <cstdint>

#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::worker {

// Per-SM limits of a device (from cudaDeviceProp) and its allocation granularities.
struct SmLimits {
  int warp_size = 32;
  int max_threads_per_sm = 2048;
  int max_blocks_per_sm = 32;
  int registers_per_sm = 65536;
  int max_registers_per_block = 65536;
  int64_t shared_per_sm = 228 * 1024;        // sharedMemPerMultiprocessor
  int64_t reserved_shared_per_block = 1024;  // reservedSharedMemPerBlock (CC >= 8.0)
  int register_allocation_unit = 256;        // registers, allocated per warp
  int register_sub_partitions = 4;           // warps' registers come from one of 4 SM quadrants
  int shared_allocation_unit = 128;          // bytes
};

// Limits of a device of compute capability `major`.`minor` with the given per-SM resources;
// fills the granularities the guide's calculator uses for that architecture.
SmLimits SmLimitsFor(int major, int minor, int max_threads_per_sm, int max_blocks_per_sm,
                     int registers_per_sm, int max_registers_per_block, int64_t shared_per_sm,
                     int64_t reserved_shared_per_block);

struct KernelResources {
  int block_threads = 0;
  int registers_per_thread = 0;
  int64_t shared_bytes_per_block = 0;        // static + dynamic
};

struct OccupancyEstimate {
  int blocks_by_warps = 0;
  int blocks_by_registers = 0;
  int blocks_by_shared = 0;
  int blocks_by_block_limit = 0;
  int active_blocks = 0;                     // the minimum of the four
  double theoretical = 0;                    // active warps / max warps per SM
  v1::OccupancyLimiter limiter = v1::OCCUPANCY_LIMITER_UNSPECIFIED;
};

// The calculator. The limiter is the resource allowing the fewest blocks; on a tie the first of
// warps, registers, shared memory, blocks. A kernel that fits no block (too many registers or
// too much shared memory per block) has active_blocks 0 and the resource that forbids it.
OccupancyEstimate EstimateOccupancy(const KernelResources& kernel, const SmLimits& limits);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_OCCUPANCY_OCCUPANCY_CALCULATOR_H_
