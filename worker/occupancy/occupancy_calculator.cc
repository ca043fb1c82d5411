// The guide's occupancy calculator, mirroring cuda_occupancy.h (CUDA 13.0) function by function:
// each piece below names the header's function it follows.
#include "worker/occupancy/occupancy_calculator.h"

#include <algorithm>
#include <climits>
#include <vector>

namespace warpwatch::worker {
namespace {

int64_t DivideRoundUp(int64_t x, int64_t y) { return (x + y - 1) / y; }
int64_t RoundUp(int64_t x, int64_t y) { return y * DivideRoundUp(x, y); }

// cudaOccMaxBlocksPerMultiprocessor.
int MaxBlocksPerSm(int major, int minor) {
  switch (major) {
    case 7: return minor == 5 ? 16 : 32;
    case 8: return minor == 0 ? 32 : minor == 9 ? 24 : 16;
    case 9: return 32;
    case 10: return minor == 1 ? 24 : 32;
    case 11: return minor == 0 ? 24 : 32;
    case 12: return 24;
    default: return 0;
  }
}

// cudaOccMaxBlocksPerSMBlockBarrierLimit: barriers per resident-block slot.
int BarrierSlotsPerBlockSlot(int major, int minor) {
  switch (major) {
    case 8: return minor == 0 ? 2 : 1;
    case 10: return minor == 1 ? 1 : 2;
    case 11: return minor == 0 ? 1 : 2;
    case 12: return 1;
    default: return 2;
  }
}

// cudaOccAlignUpShmemSizeVoltaPlus: the shared-memory configurations an SM of the architecture
// supports (KiB), in increasing order; empty for an architecture the header does not know.
const std::vector<int>& CarveoutsKib(int major, int minor) {
  static const auto* kTuring = new std::vector<int>{32, 64};
  static const auto* kVolta = new std::vector<int>{0, 8, 16, 32, 64, 96};
  static const auto* kA100 = new std::vector<int>{0, 8, 16, 32, 64, 100, 132, 164};
  static const auto* kAmpere = new std::vector<int>{0, 8, 16, 32, 64, 100};
  static const auto* kHopper = new std::vector<int>{0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  static const auto* kNone = new std::vector<int>{};
  switch (major) {
    case 7: return minor == 5 ? *kTuring : *kVolta;
    case 8: return minor == 0 || minor == 7 ? *kA100 : *kAmpere;
    case 9: return *kHopper;
    case 10:
    case 11: return minor == 0 || minor == 1 || minor == 3 ? *kHopper : *kNone;
    case 12: return minor == 0 || minor == 1 ? *kAmpere : *kNone;
    default: return *kNone;
  }
}

// `bytes` rounded up to the next supported configuration; -1 when none is large enough.
int64_t AlignUpToCarveout(int64_t bytes, int major, int minor) {
  for (int kib : CarveoutsKib(major, minor)) {
    if (bytes <= int64_t{kib} * 1024) return int64_t{kib} * 1024;
  }
  return -1;
}

// cudaOccMaxBlocksPerSMWarpsLimit (partitioned global caching is off from 7.0 on).
int BlocksByWarps(const KernelResources& k, const SmLimits& l, int warps_per_block) {
  if (k.block_threads > l.device.max_threads_per_block) return 0;
  return (l.device.max_threads_per_sm / l.device.warp_size) / warps_per_block;
}

// cudaOccMaxBlocksPerSMRegsLimit.
int BlocksByRegisters(const KernelResources& k, const SmLimits& l, int warps_per_block,
                      int64_t* allocated_per_block) {
  const int64_t regs_per_warp = int64_t{k.registers_per_thread} * l.device.warp_size;
  const int64_t allocated_per_warp = RoundUp(regs_per_warp, l.register_allocation_unit);
  *allocated_per_block = allocated_per_warp * warps_per_block;
  // The hardware's check assumes a block's warps are allocated in every sub-partition at once:
  // its warp count is rounded up to a multiple of the sub-partitions.
  const int64_t assumed_per_block =
      allocated_per_warp * RoundUp(warps_per_block, l.register_sub_partitions);
  if (l.device.registers_per_block < assumed_per_block ||
      l.device.registers_per_block < *allocated_per_block ||
      k.registers_per_thread > l.max_registers_per_thread) {
    return 0;
  }
  if (allocated_per_warp <= 0) return INT_MAX;
  // A warp's registers come from one sub-partition: whole warps per sub-partition.
  const int64_t per_partition = l.device.registers_per_sm / l.register_sub_partitions;
  const int64_t warps = per_partition / allocated_per_warp * l.register_sub_partitions;
  return static_cast<int>(warps / warps_per_block);
}

// cudaOccMaxBlocksPerSMSmemLimit, with cudaOccSMemPerBlock's per-block limit (the function
// attributes the runtime passes are FUNC_SHMEM_LIMIT_OPTIN).
int BlocksByShared(const KernelResources& k, const SmLimits& l, int64_t* allocated_per_block) {
  const DeviceResources& d = l.device;
  const int64_t static_with_reserved = k.static_shared_bytes + d.reserved_shared_per_block;
  *allocated_per_block =
      RoundUp(static_with_reserved + k.dynamic_shared_bytes, l.shared_allocation_unit);
  if (k.max_dynamic_shared_bytes >= 0 && k.dynamic_shared_bytes > k.max_dynamic_shared_bytes) {
    return 0;
  }
  // The opt-in limit applies when the kernel may use more than the default per-block limit.
  const bool opt_in = k.max_dynamic_shared_bytes < 0 ||
                      static_with_reserved + k.max_dynamic_shared_bytes > d.shared_per_block;
  int64_t per_block_limit = opt_in ? d.shared_per_block_optin : d.shared_per_block;
  if (d.major >= 8) per_block_limit += d.reserved_shared_per_block;
  if (*allocated_per_block > per_block_limit) return 0;
  int64_t per_sm = l.shared_per_sm_carveout;
  if (per_sm < *allocated_per_block) {
    // The preference only binds while one block fits; else the next larger configuration.
    per_sm = AlignUpToCarveout(*allocated_per_block, d.major, d.minor);
    if (per_sm < 0) return 0;
  }
  if (*allocated_per_block <= 0) return INT_MAX;
  return static_cast<int>(per_sm / *allocated_per_block);
}

}  // namespace

SmLimits SmLimitsFor(const DeviceResources& device) {
  SmLimits l;
  l.device = device;
  // Outside the header's tables, use the nearest architecture it knows.
  int major = device.major;
  int minor = device.minor;
  if (major < 7 || (major == 7 && minor < 5)) {
    major = 7;
    minor = 5;
    l.known_architecture = false;
  } else if (major > 12) {
    major = 12;
    minor = 0;
    l.known_architecture = false;
  } else if (CarveoutsKib(major, minor).empty()) {
    minor = 0;
    l.known_architecture = false;
  }
  l.max_blocks_per_sm = MaxBlocksPerSm(major, minor);
  l.register_allocation_unit = 256;           // cudaOccRegAllocationGranularity
  l.max_registers_per_thread = 256;           // cudaOccRegAllocationMaxPerThread
  l.register_sub_partitions = 4;              // cudaOccSubPartitionsPerMultiprocessor (7.x-12.x)
  l.shared_allocation_unit = major >= 8 ? 128 : 256;  // cudaOccSMemAllocationGranularity
  l.barrier_slots_per_block_slot = BarrierSlotsPerBlockSlot(major, minor);
  // Default carve-out: the SM's shared memory, aligned up to a supported configuration.
  const int64_t aligned = AlignUpToCarveout(device.shared_per_sm, major, minor);
  l.shared_per_sm_carveout = aligned >= 0 ? aligned : device.shared_per_sm;
  return l;
}

OccupancyEstimate EstimateOccupancy(const KernelResources& k, const SmLimits& l) {
  OccupancyEstimate e;
  if (k.block_threads <= 0 || l.device.warp_size <= 0 || l.register_sub_partitions <= 0) return e;
  const int warps_per_block =
      static_cast<int>(DivideRoundUp(k.block_threads, l.device.warp_size));
  const int max_warps = l.device.max_threads_per_sm / l.device.warp_size;
  e.blocks_by_warps = BlocksByWarps(k, l, warps_per_block);
  e.blocks_by_registers = BlocksByRegisters(k, l, warps_per_block, &e.registers_per_block);
  e.blocks_by_shared = BlocksByShared(k, l, &e.shared_per_block);
  e.blocks_by_block_limit = l.max_blocks_per_sm;
  // cudaOccMaxBlocksPerSMBlockBarrierLimit (Hopper on).
  if (l.device.major >= 9 && k.block_barriers > 0) {
    e.blocks_by_block_limit =
        std::min(e.blocks_by_block_limit,
                 l.max_blocks_per_sm * l.barrier_slots_per_block_slot / k.block_barriers);
  }

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
