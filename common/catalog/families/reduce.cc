// Catalog entry of the reduce family (notes 001, Harris's "Optimizing parallel reduction").
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/counters.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

FamilyInfo Reduce() {
  FamilyInfo f;
  f.name = "reduce";
  f.guide_section = "notes 001 (Harris, Optimizing Parallel Reduction)";
  f.lesson = "each step of the book's table; the best within a few % of CUB";
  f.variants = {
      {"neighbored", "reduceNeighbored: stride doubling on tid % (2*stride), divergent", false,
       false},
      {"neighbored_less", "reduceNeighboredLess: compacted active threads, less divergence", false,
       false},
      {"interleaved", "reduceInterleaved: stride halving from blockDim/2", false, false},
      {"unrolling2", "reduceUnrolling2: each block first adds 2 data blocks", false, false},
      {"unrolling4", "reduceUnrolling4: each block first adds 4 data blocks", false, false},
      {"unrolling8", "reduceUnrolling8: each block first adds 8 data blocks", false, false},
      {"unroll_warps8", "reduceUnrollWarps8: last warp unrolled (__syncwarp, not volatile)", false,
       false},
      {"complete_unroll_warps8", "reduceCompleteUnrollWarps8: in-block loop fully unrolled", false,
       false},
      {"complete_unroll", "reduceCompleteUnroll<blockSize>: block size as a template parameter",
       false, false},
      {"warp_shuffle",
       "grid-stride int4 loads (8 ints per thread per step), __shfl_down_sync block sums, the "
       "last block adds the block sums: the whole sum in one launch",
       /*recommended=*/true, false},
      {"cub", "cub::DeviceReduce::Sum", false, /*reference=*/true},
  };
  AxisInfo block = BlockSizeAxis({256});
  block.min = 64;  // the unrolled tails assume at least two warps
  block.power_of_two = true;
  for (const VariantInfo& v : f.variants) {
    if (v.name != "cub") block.variants.push_back(v.name);
  }
  f.axes = {
      ProblemSizeAxis("int elements summed", {1 << 24}, 1, int64_t{1} << 28),
      block,
  };
  f.counters = {kDramThroughput, kBranchEfficiency, kSharedLoadBankConflicts,
                kSharedStoreBankConflicts, kInstructionsExecuted};
  return f;
}

}  // namespace warpwatch::catalog::detail
