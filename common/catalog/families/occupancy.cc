// Catalog entries of the occupancy.* families (guide 5.2.3 multiprocessor level, B.23).
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/counters.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

FamilyInfo OccupancyBlockSize() {
  FamilyInfo f;
  f.name = "occupancy.block_size";
  f.guide_section = "5.2.3 multiprocessor level, 5.2.3.1 occupancy calculator";
  f.lesson = "theoretical vs achieved occupancy, and where more stops helping";
  f.variants = {
      {"fixed", "the kernel at the block size of the block_size axis", false, false},
      {"occupancy_api", "block size chosen by cudaOccupancyMaxPotentialBlockSize",
       /*recommended=*/true, false},
  };
  f.axes = {
      ProblemSizeAxis("float elements processed", {1 << 24}, 1 << 10, int64_t{1} << 28),
      BlockSizeAxis({32, 64, 128, 256, 512, 1024}, {"fixed"}),
  };
  f.counters = {kDramThroughput, kSmThroughput};
  return f;
}

// __launch_bounds__ is compile time, so the register caps are discrete variants rather than an
// axis. The kernel is written to want more than 64 registers per thread unbounded; at 512 threads
// per block 64 registers fit two blocks on a 64 K-register SM, 65 only one (the guide's cliff).
FamilyInfo OccupancyRegisters() {
  FamilyInfo f;
  f.name = "occupancy.registers";
  f.guide_section = "5.2.3 multiprocessor level, B.23 launch bounds";
  f.lesson = "the guide's 64 vs 65 registers cliff; spills when capped too hard";
  f.variants = {
      {"regs_unbounded", "no launch bounds: the compiler takes the registers it wants (> 64)",
       false, false},
      {"launch_bounds_512_1", "__launch_bounds__(512, 1): one 512-thread block per SM required",
       false, false},
      {"launch_bounds_512_2",
       "__launch_bounds__(512, 2): <= 64 registers, two 512-thread blocks per SM",
       /*recommended=*/true, false},
      {"launch_bounds_1024_2",
       "__launch_bounds__(1024, 2): <= 32 registers, the kernel spills to local memory", false,
       false},
  };
  AxisInfo block = BlockSizeAxis({512});
  block.description += " (at most the variant's launch bound; above it the point is skipped)";
  f.axes = {
      ProblemSizeAxis("float elements processed", {1 << 24}, 1 << 10, int64_t{1} << 28),
      block,
  };
  f.counters = {kLocalLoadSectors, kLocalStoreSectors, kSmThroughput, kIssueActive};
  return f;
}

FamilyInfo OccupancySharedMemory() {
  FamilyInfo f;
  f.name = "occupancy.shared_memory";
  f.guide_section = "5.2.3 multiprocessor level";
  f.lesson = "shared memory as the occupancy limiter";
  f.variants = {
      {"minimal", "the kernel with only the shared memory it needs (one float per thread)",
       /*recommended=*/true, false},
      {"padded", "the same kernel with shared_bytes of dynamic shared memory per block", false,
       false},
  };
  AxisInfo bytes = Axis("shared_bytes", "dynamic shared memory per block in bytes",
                        {49152, 102400}, 1024, 232448);
  bytes.multiple_of = 1024;
  bytes.variants = {"padded"};
  f.axes = {
      ProblemSizeAxis("float elements processed", {1 << 24}, 1 << 10, int64_t{1} << 28),
      BlockSizeAxis({256}),
      bytes,
  };
  f.counters = {kDramThroughput, kSmThroughput};
  return f;
}

}  // namespace warpwatch::catalog::detail
