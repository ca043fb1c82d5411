// control.unroll: variants, axes and verification on the elementwise case template
// (kernels/core/elementwise_case.h). The kernels are in unroll_kernels.cu, the loop's step in
// unroll_step.h.
#include <memory>
#include <utility>
#include <vector>

#include "kernels/control/unroll/unroll_kernels.h"
#include "kernels/control/unroll/unroll_reference.h"
#include "kernels/control/unroll/unroll_step.h"
#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"

namespace warpwatch::kernels {
namespace {

const VariantTable<UnrollFactor>& Variants() {
  static const auto& table = NewVariantTable<UnrollFactor>({
      {"unroll_1", UnrollFactor::kOne},
      {"unroll_4", UnrollFactor::kFour},
      {"unroll_full", UnrollFactor::kFull},
  });
  return table;
}

class UnrollFamily : public Family {
 public:
  std::string_view name() const override { return "control.unroll"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<UnrollFactor> p, ReadPoint1D(point, Variants()));
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * static_cast<double>(p.n), prop));
    ASSIGN_OR_RETURN(const Launch1D launch, ReadLaunch1D(point, p.n, 1, prop));
    const UnrollFactor factor = p.variant;
    const int64_t n = p.n;
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_count = s.out_count = static_cast<size_t>(n);
    s.run = [factor, n, launch](const float* d_in, float* d_out, cudaStream_t stream) {
      return LaunchUnroll(factor, d_in, d_out, n, launch.grid, launch.block, stream);
    };
    // A sample, compared exactly: the CPU reference is too slow for every element.
    s.sample = [n] { return UnrollVerifiedElements(n); };
    s.reference_at = [](const std::vector<int64_t>& picked) {
      return UnrollReference(picked, kSeed);
    };
    s.shape = launch.ShapeOf(UnrollKernel(factor));
    // Per element and step: one add and one FMA (3 operations); the loop's own counter, compare
    // and branch are the overhead unrolling removes, not work.
    s.work.bytes = 2.0 * sizeof(float) * static_cast<double>(n);
    s.work.flops = 3.0 * kUnrollInnerSteps * kUnrollOuterReps * static_cast<double>(n);
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(UnrollFamily);

}  // namespace
}  // namespace warpwatch::kernels
