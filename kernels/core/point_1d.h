// What most families read first from a catalog Point in MakeCase: the variant, the canonical key
// (for messages), `n`, and a one-dimensional launch from `block_size`. CUDA-free (reads only a
// cudaDeviceProp), so impossible points are refused before the GPU is touched.
#ifndef WARPWATCH_KERNELS_CORE_POINT_1D_H_
#define WARPWATCH_KERNELS_CORE_POINT_1D_H_

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "common/catalog/plan.h"
#include "common/status/status.h"
#include "kernels/core/family.h"
#include "kernels/core/point_params.h"
#include "kernels/core/variant_table.h"

namespace warpwatch::kernels {

// A point's variant, key and problem size.
template <typename Variant>
struct Point1D {
  std::string key;  // point.Canonical(), for messages and buffer names
  Variant variant{};
  int64_t n = 0;
};

// Looks the variant up first (INVALID_ARGUMENT "<family>: unknown variant" before any other
// check, as LookupVariant's contract asks), then reads axis `n` (>= 1).
template <typename Variant>
StatusOr<Point1D<Variant>> ReadPoint1D(const catalog::Point& point,
                                       const VariantTable<Variant>& variants) {
  Point1D<Variant> p;
  ASSIGN_OR_RETURN(p.variant, LookupVariant(point, variants));
  p.key = point.Canonical();
  ASSIGN_OR_RETURN(p.n, AxisValue(point, "n"));
  return p;
}

// A one-dimensional launch: `block` threads per block, `grid` blocks.
struct Launch1D {
  unsigned grid = 1;
  unsigned block = 1;

  // The LaunchShape of `function` launched this way (no dynamic shared memory).
  LaunchShape ShapeOf(const void* function) const;
};

// Reads axis `block_size`, checks it against the device (FAILED_PRECONDITION when too large) and
// sizes the grid so that each thread takes `items_per_thread` of `items` (GridFor). With
// `whole_warps`, a block_size that is not a multiple of 32 is INVALID_ARGUMENT
// "<key>: block_size must be whole warps", checked before the device limit.
StatusOr<Launch1D> ReadLaunch1D(const catalog::Point& point, int64_t items,
                                int64_t items_per_thread, const cudaDeviceProp& prop,
                                bool whole_warps = false);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_POINT_1D_H_
