// Catalog entry of latency.ilp (guide 5.2.3, notes 4.2.7: instruction-level parallelism).
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/counters.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

FamilyInfo LatencyIlp() {
  FamilyInfo f;
  f.name = "latency.ilp";
  f.guide_section = "5.2.3 multiprocessor level / notes 4.2.7";
  f.lesson = "ILP hides latency with fewer warps";
  f.variants = {
      {"ilp1", "one dependent FMA chain per thread", false, false},
      {"ilp2", "two independent FMA chains per thread", false, false},
      {"ilp4", "four independent FMA chains per thread", /*recommended=*/true, false},
      {"ilp8", "eight independent FMA chains per thread", false, false},
  };
  // Occupancy is set by launching blocks_per_sm blocks per SM (grid = SMs x blocks_per_sm).
  f.axes = {
      BlockSizeAxis({256}),
      Axis("blocks_per_sm", "resident blocks launched per SM (grid = SM count x this)",
           {1, 8}, 1, 32),
  };
  f.counters = {kFmaPipe, kIssueActive, kSmThroughput};
  return f;
}

}  // namespace warpwatch::catalog::detail
