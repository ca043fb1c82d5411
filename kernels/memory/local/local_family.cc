// memory.local: variants, axes and verification on the elementwise case template
// (kernels/core/elementwise_case.h). The kernels are in local_kernels.cu, the array in
// local_array.h.
#include <memory>
#include <utility>
#include <vector>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/memory/local/local_array.h"
#include "kernels/memory/local/local_kernels.h"
#include "kernels/memory/local/local_reference.h"

namespace warpwatch::kernels {
namespace {

const VariantTable<LocalIndexing>& Variants() {
  static const auto& table = NewVariantTable<LocalIndexing>({
      {"dynamic_index", LocalIndexing::kDynamic},
      {"unrolled_registers", LocalIndexing::kRegisters},
  });
  return table;
}

class LocalFamily : public Family {
 public:
  std::string_view name() const override { return "memory.local"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<LocalIndexing> p, ReadPoint1D(point, Variants()));
    ASSIGN_OR_RETURN(const int64_t size, AxisValue(point, "array_size"));
    if (!LocalArraySizeSupported(size)) {
      return InvalidArgumentError(p.key + ": array_size must be 4, 8, 16, 32 or 64");
    }
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * static_cast<double>(p.n), prop));
    ASSIGN_OR_RETURN(const Launch1D launch, ReadLaunch1D(point, p.n, 1, prop));
    const LocalIndexing indexing = p.variant;
    const int64_t n = p.n;
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_count = s.out_count = static_cast<size_t>(n);
    s.run = [indexing, size, n, launch](const float* d_in, float* d_out, cudaStream_t stream) {
      return LaunchLocalArray(indexing, size, d_in, d_out, n, launch.grid, launch.block, stream);
    };
    // A sample, compared exactly: the CPU reference is too slow for every element.
    s.sample = [n] { return LocalVerifiedElements(n); };
    s.reference_at = [size](const std::vector<int64_t>& picked) {
      return LocalReference(picked, static_cast<int>(size), kSeed);
    };
    s.shape = launch.ShapeOf(LocalArrayKernel(indexing, size));
    // One float in and one out per thread; per thread, `size` FMAs build the array and
    // kLocalRounds * size FMAs fold it. Local-memory traffic is the waste, not work.
    s.work.bytes = 2.0 * sizeof(float) * static_cast<double>(n);
    s.work.flops = 2.0 * static_cast<double>(n) * static_cast<double>(size) * (1 + kLocalRounds);
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(LocalFamily);

}  // namespace
}  // namespace warpwatch::kernels
