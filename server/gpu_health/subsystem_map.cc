// File: server/gpu_health/subsystem_map.cc
#include "server/gpu_health/subsystem_map.h"

namespace warpwatch::server::gpu_health {
namespace {

using S = v1::GpuSubsystem;
constexpr S kHbm = v1::GPU_SUBSYSTEM_HBM_BANDWIDTH;
constexpr S kL2 = v1::GPU_SUBSYSTEM_L2_CACHE;
constexpr S kSm = v1::GPU_SUBSYSTEM_SM_ARITHMETIC;
constexpr S kShared = v1::GPU_SUBSYSTEM_SHARED_MEMORY;
constexpr S kPcie = v1::GPU_SUBSYSTEM_PCIE_TRANSFERS;
constexpr S kLaunch = v1::GPU_SUBSYSTEM_LAUNCH_LATENCY;

}  // namespace

const std::vector<FamilySubsystem>& FamilySubsystems() {
  static const std::vector<FamilySubsystem> table = {
      {"memory.coalescing", kHbm, "streams 16M-element arrays through device memory"},
      {"memory.alignment", kHbm, "streaming reads at offsets: DRAM sectors per request"},
      {"memory.vector_width", kHbm, "wide loads reach the DRAM bandwidth ceiling"},
      {"memory.aos_soa", kHbm, "field reads of large arrays of structs: DRAM traffic"},
      {"memory.pitch_2d", kHbm, "row-wise streaming of 2-D arrays"},
      {"memory.local", kHbm, "spilled per-thread arrays live in device memory"},
      {"memory.managed", kPcie, "managed pages migrate over the host link"},
      {"memory.allocation_churn", kLaunch, "cudaMalloc/cudaFree calls: driver and host latency"},
      {"memory.constant", kL2, "constant-cache and L2 hits, not DRAM"},
      {"memory.readonly_cache", kL2, "a gather whose reuse the read-only path and L2 serve"},
      {"shared.bank_conflicts", kShared, "shared-memory bank throughput"},
      {"shared.transpose", kShared, "shared-memory tiles, bank conflicts and padding"},
      {"reduce", kHbm, "one pass over a 16M-element array: device-memory bound"},
      {"matmul", kSm, "FMA throughput with shared-memory reuse (compute-bound at size)"},
      {"control.divergence", kSm, "issue slots of divergent and warp-aligned branches"},
      {"control.unroll", kSm, "branch and index instructions per element"},
      {"occupancy.block_size", kSm, "resident warps hiding latency on the SMs"},
      {"occupancy.registers", kSm, "register-limited occupancy on the SMs"},
      {"occupancy.shared_memory", kShared, "shared memory per block as the occupancy limiter"},
      {"latency.ilp", kSm, "dependent arithmetic chains: SM issue latency"},
      {"instr.arithmetic", kSm, "FMA, integer and half-precision throughput per SM"},
      {"instr.intrinsics", kSm, "special-function unit throughput"},
      {"instr.trig_range", kSm, "the slow path of sinf: SM instruction throughput"},
      {"instr.integer_division", kSm, "integer instruction throughput"},
      {"instr.type_conversion", kSm, "conversion instruction throughput"},
      {"instr.syncthreads", kSm, "barrier throughput on the SMs"},
      {"transfer.host_device", kPcie, "host-device copies over PCIe or NVLink-C2C"},
      {"concurrency.streams", kPcie, "copy-compute overlap: the copies bound it"},
      {"dynamic_parallelism", kLaunch, "device-side kernel launches"},
  };
  return table;
}

v1::GpuSubsystem SubsystemOfFamily(std::string_view family) {
  for (const FamilySubsystem& row : FamilySubsystems()) {
    if (row.family == family) return row.subsystem;
  }
  return v1::GPU_SUBSYSTEM_UNSPECIFIED;
}

std::string_view SubsystemName(v1::GpuSubsystem subsystem) {
  switch (subsystem) {
    case v1::GPU_SUBSYSTEM_HBM_BANDWIDTH:
      return "HBM bandwidth";
    case v1::GPU_SUBSYSTEM_L2_CACHE:
      return "L2 cache";
    case v1::GPU_SUBSYSTEM_SM_ARITHMETIC:
      return "SM arithmetic";
    case v1::GPU_SUBSYSTEM_SHARED_MEMORY:
      return "shared memory";
    case v1::GPU_SUBSYSTEM_PCIE_TRANSFERS:
      return "PCIe transfers";
    case v1::GPU_SUBSYSTEM_LAUNCH_LATENCY:
      return "launch latency";
    case v1::GPU_SUBSYSTEM_CLOCKS_THROTTLING:
      return "clocks and throttling";
    case v1::GPU_SUBSYSTEM_INTERCONNECT:
      return "GPU interconnect";
    default:
      return "unmapped families";
  }
}

}  // namespace warpwatch::server::gpu_health
