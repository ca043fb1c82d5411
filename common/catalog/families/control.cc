// Catalog entries of the control.* families (guide 5.4.2 control flow, B.24 #pragma unroll).
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/counters.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

FamilyInfo ControlDivergence() {
  FamilyInfo f;
  f.name = "control.divergence";
  f.guide_section = "5.4.2 control flow instructions / notes 001";
  f.lesson = "divergence serialises paths; warp-aligned branches cost nothing";
  f.variants = {
      {"thread_branch", "branch on tid % 2: both paths run in every warp", false, false},
      {"warp_branch", "branch on (tid / warpSize) % 2: whole warps take one path",
       /*recommended=*/true, false},
      {"predicated", "both results computed, one selected without a branch", false, false},
  };
  f.axes = {
      ProblemSizeAxis("float elements computed", {1 << 24}, 1 << 10, int64_t{1} << 28),
      BlockSizeAxis({256}),
  };
  f.counters = {kBranchEfficiency, kThreadsPerInstruction, kInstructionsExecuted};
  return f;
}

FamilyInfo ControlUnroll() {
  FamilyInfo f;
  f.name = "control.unroll";
  f.guide_section = "B.24 #pragma unroll / notes 001";
  f.lesson = "fewer branch and index instructions";
  f.variants = {
      {"unroll_1", "inner loop of 16 steps under #pragma unroll 1", false, false},
      {"unroll_4", "the same loop under #pragma unroll 4", false, false},
      {"unroll_full", "the same loop fully unrolled (#pragma unroll)", /*recommended=*/true,
       false},
  };
  f.axes = {
      ProblemSizeAxis("float elements computed", {1 << 24}, 1 << 10, int64_t{1} << 28),
      BlockSizeAxis({256}),
  };
  f.counters = {kInstructionsExecuted, kIssueActive, kSmThroughput};
  return f;
}

}  // namespace warpwatch::catalog::detail
