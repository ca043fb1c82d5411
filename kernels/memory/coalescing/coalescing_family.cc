// memory.coalescing: variants, axes and verification on the elementwise case template
// (kernels/core/elementwise_case.h). The kernels are in coalescing_kernels.cu.
#include <memory>
#include <utility>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/memory/coalescing/coalescing_kernels.h"
#include "kernels/memory/coalescing/coalescing_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kCopy, kScattered, kStrided, kMemcpy };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"copy", Variant::kCopy},
      {"scattered", Variant::kScattered},
      {"strided", Variant::kStrided},
      {"memcpy", Variant::kMemcpy},
  });
  return table;
}

CoalescingPattern PatternOf(Variant v) {
  switch (v) {
    case Variant::kScattered:
      return CoalescingPattern::kScattered;
    case Variant::kStrided:
      return CoalescingPattern::kStrided;
    default:
      return CoalescingPattern::kContiguous;
  }
}

class CoalescingFamily : public Family {
 public:
  std::string_view name() const override { return "memory.coalescing"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<Variant> p, ReadPoint1D(point, Variants()));
    int64_t stride = 1;
    if (p.variant == Variant::kStrided) {
      ASSIGN_OR_RETURN(stride, AxisValue(point, "stride"));
    }
    RETURN_IF_ERROR(CheckDeviceMemory(
        static_cast<double>(sizeof(float)) * static_cast<double>(p.n) * (stride + 1), prop));
    const int64_t n = p.n;
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_count = static_cast<size_t>(n * stride);
    s.out_count = static_cast<size_t>(n);
    s.reference = [n, stride] { return CoalescingReference(n, stride, kSeed); };
    s.work.bytes = 2.0 * sizeof(float) * static_cast<double>(n);
    if (p.variant == Variant::kMemcpy) {  // the ceiling: no kernel of ours, no launch shape
      s.run = [n](const float* d_in, float* d_out, cudaStream_t stream) -> Status {
        CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(d_out, d_in, sizeof(float) * static_cast<size_t>(n),
                                             cudaMemcpyDeviceToDevice, stream));
        return OkStatus();
      };
      return MakeElementwiseCase(std::move(s));
    }
    ASSIGN_OR_RETURN(const Launch1D launch,
                     ReadLaunch1D(point, n, kCoalescingElementsPerThread, prop));
    const CoalescingPattern pattern = PatternOf(p.variant);
    s.run = [pattern, n, stride, launch](const float* d_in, float* d_out, cudaStream_t stream) {
      return LaunchCoalescingCopy(pattern, d_in, d_out, n, stride, launch.grid, launch.block,
                                  stream);
    };
    s.shape = launch.ShapeOf(CoalescingKernel(pattern));
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(CoalescingFamily);

}  // namespace
}  // namespace warpwatch::kernels
