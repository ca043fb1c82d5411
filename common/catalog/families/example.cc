// Catalog entry of example.grid_stride, the family docs/adding-a-family.md builds step by step.
// Opt-in: a job that names it runs it; the nightly suite (`*`) does not.
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/counters.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

FamilyInfo ExampleGridStride() {
  FamilyInfo f;
  f.name = "example.grid_stride";
  f.guide_section = "none (example family, docs/adding-a-family.md)";
  f.lesson =
      "a grid-stride loop over one wave of resident blocks streams as fast as one thread "
      "per element";
  f.variants = {
      {"one_per_thread", "out[i] = 2*in[i] + 1, one element per thread, ceil(n / block) blocks",
       false, false},
      {"grid_stride",
       "the same, each thread striding by the grid over a grid of one wave (the blocks every SM "
       "holds at once)",
       /*recommended=*/true, false},
  };
  f.axes = {
      ProblemSizeAxis("float elements scaled", {1 << 24}, 1 << 10, int64_t{1} << 28),
      BlockSizeAxis({256}),
  };
  f.counters = {kDramThroughput};
  f.opt_in = true;
  return f;
}

}  // namespace warpwatch::catalog::detail
