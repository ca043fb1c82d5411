// The guide's occupancy calculator.
#include "worker/occupancy/occupancy_calculator.h"

#include <algorithm>
#include <climits>

namespace warpwatch::worker {
namespace {

int64_t CeilTo(int64_t x, int64_t unit) { return unit <= 0 ? x : (x + unit - 1) / unit * unit; }

int BlocksByRegisters(const KernelResources& k, const SmLimits& l, int warps_per_block) {
  if (k.registers_per_thread <= 0) return INT_MAX;
  const int64_t regs_per_warp = CeilTo(int64_t{k.registers_per_thread} * l.warp_size,
                                       l.register_allocation_unit);
  // A block's registers, as allocated (whole warps, rounded), must fit the per-block limit.
  if (regs_per_warp * warps_per_block > l.max_registers_per_block) return 0;
  // Registers are allocated per warp from one of the SM's sub-partitions: a warp never straddles
  // two, so count whole warps per sub-partition.
  const int parts = std::max(1, l.register_sub_partitions);
  const int64_t warps = (l.registers_per_sm / parts) / regs_per_warp * parts;
  return static_cast<int>(warps / warps_per_block);
}

int BlocksByShared(const KernelResources& k, const SmLimits& l) {
  if (k.shared_bytes_per_block <= 0 && l.reserved_shared_per_block <= 0) return INT_MAX;
  const int64_t per_block =
      CeilTo(k.shared_bytes_per_block + l.reserved_shared_per_block, l.shared_allocation_unit);
  return static_cast<int>(l.shared_per_sm / per_block);
}

}  // namespace

SmLimits SmLimitsFor(int major, int /*minor*/, int max_threads_per_sm, int max_blocks_per_sm,
                     int registers_per_sm, int max_registers_per_block, int64_t shared_per_sm,
                     int64_t reserved_shared_per_block) {
  SmLimits l;
  l.max_threads_per_sm = max_threads_per_sm;
  l.max_blocks_per_sm = max_blocks_per_sm;
  l.registers_per_sm = registers_per_sm;
  l.max_registers_per_block = max_registers_per_block;
  l.shared_per_sm = shared_per_sm;
  l.reserved_shared_per_block = reserved_shared_per_block;
  l.register_allocation_unit = 256;
  l.register_sub_partitions = major >= 6 ? 4 : 2;
  l.shared_allocation_unit = major >= 8 ? 128 : 256;
  return l;
}

OccupancyEstimate EstimateOccupancy(const KernelResources& k, const SmLimits& l) {
  OccupancyEstimate e;
  if (k.block_threads <= 0 || l.warp_size <= 0) return e;
  const int warps_per_block = (k.block_threads + l.warp_size - 1) / l.warp_size;
  const int max_warps = l.max_threads_per_sm / l.warp_size;
  e.blocks_by_warps = max_warps / warps_per_block;
  e.blocks_by_registers = BlocksByRegisters(k, l, warps_per_block);
  e.blocks_by_shared = BlocksByShared(k, l);
  e.blocks_by_block_limit = l.max_blocks_per_sm;

  // Ties resolve to the first entry.
  const std::pair<int, v1::OccupancyLimiter> limits[] = {
      {e.blocks_by_warps, v1::OCCUPANCY_LIMITER_WARPS},
      {e.blocks_by_registers, v1::OCCUPANCY_LIMITER_REGISTERS},
      {e.blocks_by_shared, v1::OCCUPANCY_LIMITER_SHARED_MEMORY},
      {e.blocks_by_block_limit, v1::OCCUPANCY_LIMITER_BLOCKS},
  };
  e.active_blocks = INT_MAX;
  for (const auto& [blocks, limiter] : limits) {
    if (blocks < e.active_blocks) {
      e.active_blocks = blocks;
      e.limiter = limiter;
    }
  }
  if (e.blocks_by_registers == INT_MAX) e.blocks_by_registers = e.active_blocks;
  if (e.blocks_by_shared == INT_MAX) e.blocks_by_shared = e.active_blocks;
  e.theoretical = max_warps > 0 ? static_cast<double>(e.active_blocks * warps_per_block) / max_warps
                                : 0.0;
  return e;
}

}  // namespace warpwatch::worker
