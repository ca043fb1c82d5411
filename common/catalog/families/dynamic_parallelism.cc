// Catalog entry of dynamic_parallelism (notes 001: nested reduction launched from the device).
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/counters.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

FamilyInfo DynamicParallelism() {
  FamilyInfo f;
  f.name = "dynamic_parallelism";
  f.guide_section = "notes 001 (dynamic parallelism: nested reduction)";
  f.lesson = "device launches cost; deep recursion hurts";
  f.variants = {
      {"flat", "the interleaved reduction launched once from the host", /*recommended=*/true,
       false},
      {"nested", "gpuRecursiveReduce: each block launches a child grid of half its size", false,
       false},
      {"nested_nosync",
       "nested without the barrier before each child launch: the child is a tail launch "
       "(cudaStreamTailLaunch), which starts once its whole parent grid has finished",
       false, false},
      {"nested_2",
       "gpuRecursiveReduce2: one child launch per level from the first block (a tail launch, so "
       "each level starts after the whole previous one)",
       false, false},
  };
  AxisInfo block = BlockSizeAxis({512});
  block.min = 64;
  block.power_of_two = true;  // the recursion halves the block
  f.axes = {
      // Nightly 2^19: 1024 top-level blocks of 512, where every variant verified on the H100
      // with the device runtime's default pending-launch pool; larger grids on request.
      ProblemSizeAxis("int elements summed", {1 << 19}, 1 << 10, 1 << 24),
      block,
  };
  f.counters = {kSmThroughput, kInstructionsExecuted};
  f.timed_region =
      "the host launch and every grid it launches from the device, to the last child's end";
  return f;
}

}  // namespace warpwatch::catalog::detail
