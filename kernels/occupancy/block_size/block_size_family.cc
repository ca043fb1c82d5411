// occupancy.block_size: variants, axes and launch on the elementwise template (inputs x and y).
// `fixed` launches at the block_size axis; `occupancy_api` lets cudaOccupancyMaxPotentialBlockSize
// choose (in Setup, on the device).
#include <memory>
#include <string>
#include <utility>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/occupancy/block_size/block_size_kernels.h"
#include "kernels/occupancy/block_size/block_size_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kFixed, kOccupancyApi };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"fixed", Variant::kFixed},
      {"occupancy_api", Variant::kOccupancyApi},
  });
  return table;
}

class BlockSizeFamily : public Family {
 public:
  std::string_view name() const override { return "occupancy.block_size"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<Variant> p, ReadPoint1D(point, Variants()));
    const int64_t n = p.n;
    RETURN_IF_ERROR(CheckDeviceMemory(3.0 * sizeof(float) * static_cast<double>(n), prop));
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_name = "x/y";  // input 0 is x (kSeed), input 1 is y (kSeed + 1)
    s.inputs = 2;
    s.in_count = s.out_count = static_cast<size_t>(n);
    if (p.variant == Variant::kFixed) {
      ASSIGN_OR_RETURN(const Launch1D launch, ReadLaunch1D(point, n, 1, prop));
      s.shape = launch.ShapeOf(SaxpyKernel());
    } else {
      // The smallest block the API can pick is one warp: the grid must fit at that size too.
      RETURN_IF_ERROR(GridFor(n, prop.warpSize > 0 ? prop.warpSize : 32, prop).status());
      const int max_grid = prop.maxGridSize[0];
      const std::string key = p.key;
      s.shape.function = SaxpyKernel();
      s.prepare = [n, max_grid, key](LaunchShape* shape) -> Status {
        ASSIGN_OR_RETURN(int block, SaxpyPotentialBlockSize());
        const int64_t grid = CeilDiv(n, block);
        if (grid > max_grid) return InternalError(key + ": grid above the device maximum");
        shape->block = dim3(static_cast<unsigned>(block));
        shape->grid = dim3(static_cast<unsigned>(grid));
        return OkStatus();
      };
    }
    s.launch = [n](const ElementwiseArgs<float, float>& a, cudaStream_t stream) {
      return LaunchSaxpy(kSaxpyScale, a.d_in[0], a.d_in[1], a.d_out, n, a.shape.grid.x,
                         a.shape.block.x, stream);
    };
    s.reference = [n] { return SaxpyReference(n, kSeed); };
    s.work.bytes = 3.0 * sizeof(float) * static_cast<double>(n);
    s.work.flops = 2.0 * static_cast<double>(n);
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(BlockSizeFamily);

}  // namespace
}  // namespace warpwatch::kernels
