// example.grid_stride: the family docs/adding-a-family.md walks through, on the elementwise case
// template (kernels/core/elementwise_case.h). The kernels are in grid_stride_kernels.cu.
#include <algorithm>
#include <memory>
#include <utility>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/example/grid_stride/grid_stride_kernels.h"
#include "kernels/example/grid_stride/grid_stride_reference.h"

namespace warpwatch::kernels {
namespace {

const VariantTable<GridStrideLoop>& Variants() {
  static const auto& table = NewVariantTable<GridStrideLoop>({
      {"one_per_thread", GridStrideLoop::kOnePerThread},
      {"grid_stride", GridStrideLoop::kGridStride},
  });
  return table;
}

class GridStrideFamily : public Family {
 public:
  std::string_view name() const override { return "example.grid_stride"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<GridStrideLoop> p, ReadPoint1D(point, Variants()));
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * static_cast<double>(p.n), prop));
    ASSIGN_OR_RETURN(Launch1D launch, ReadLaunch1D(point, p.n, 1, prop));
    if (p.variant == GridStrideLoop::kGridStride) {
      // One wave: as many blocks as the SMs hold at once (threads and the block limit decide
      // for a kernel this small), fewer when n needs fewer.
      const int per_sm =
          std::max(1, std::min(prop.maxBlocksPerMultiProcessor,
                               prop.maxThreadsPerMultiProcessor / static_cast<int>(launch.block)));
      launch.grid = GridStrideBlocks(p.n, launch.block, per_sm, prop.multiProcessorCount);
    }
    const GridStrideLoop loop = p.variant;
    const int64_t n = p.n;
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_count = s.out_count = static_cast<size_t>(n);
    s.run = [loop, n, launch](const float* d_in, float* d_out, cudaStream_t stream) {
      return LaunchGridStrideScale(loop, d_in, d_out, n, launch.grid, launch.block, stream);
    };
    s.reference = [n] { return GridStrideReference(n, kSeed); };
    s.shape = launch.ShapeOf(GridStrideKernel(loop));
    s.work.bytes = 2.0 * sizeof(float) * static_cast<double>(n);  // n floats read, n written
    s.work.flops = 2.0 * static_cast<double>(n);                  // one FMA per element
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(GridStrideFamily);

}  // namespace
}  // namespace warpwatch::kernels
