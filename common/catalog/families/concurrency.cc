// Catalog entry of concurrency.streams (guide 5.2.1 application level, 5.2.2 device level).
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/counters.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

FamilyInfo ConcurrencyStreams() {
  FamilyInfo f;
  f.name = "concurrency.streams";
  f.guide_section = "5.2.1 application level, 5.2.2 device level";
  f.lesson = "overlap hides transfers; small kernels share the GPU";
  f.variants = {
      {"serial_pipeline", "copy in, kernel, copy out of n floats in one stream", false, false},
      {"streamed_pipeline", "the same work split in chunks over `streams` streams (overlapped)",
       /*recommended=*/true, false},
      {"serial_small_kernels",
       "`streams` small kernels (n / streams elements, ceil(SMs / streams) blocks each) one after "
       "another in one stream",
       false, false},
      {"concurrent_small_kernels", "the same small kernels, one per stream, running together",
       false, false},
  };
  f.axes = {
      ProblemSizeAxis("float elements: the pipeline's, or those the small kernels share",
                      {1 << 24}, 1 << 10, int64_t{1} << 27),
      BlockSizeAxis({256}),
      Axis("streams", "streams, or small kernels, the work is split over", {4}, 1, 32),
  };
  f.counters = {kSmThroughput, kDramThroughput};
  f.timed_region =
      "the whole pipeline or set of kernels: host-device copies and every stream's work, from the "
      "first enqueue to the last completion";
  return f;
}

}  // namespace warpwatch::catalog::detail
