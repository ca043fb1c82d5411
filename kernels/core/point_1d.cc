// The one-dimensional launch read from a point's block_size.
#include "kernels/core/point_1d.h"

#include "kernels/core/launch_limits.h"

namespace warpwatch::kernels {

LaunchShape Launch1D::ShapeOf(const void* function) const {
  LaunchShape shape;
  shape.function = function;
  shape.grid = dim3(grid);
  shape.block = dim3(block);
  return shape;
}

StatusOr<Launch1D> ReadLaunch1D(const catalog::Point& point, int64_t items,
                                int64_t items_per_thread, const cudaDeviceProp& prop,
                                bool whole_warps) {
  ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
  if (whole_warps && block % 32 != 0) {
    return InvalidArgumentError(point.Canonical() + ": block_size must be whole warps");
  }
  RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
  Launch1D launch;
  launch.block = static_cast<unsigned>(block);
  ASSIGN_OR_RETURN(launch.grid, GridFor(items, block * items_per_thread, prop));
  return launch;
}

}  // namespace warpwatch::kernels
