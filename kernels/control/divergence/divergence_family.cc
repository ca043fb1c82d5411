// control.divergence: variants, axes and verification on the elementwise case template
// (kernels/core/elementwise_case.h). The kernels are in divergence_kernels.cu, the two paths in
// divergence_paths.h.
#include <memory>
#include <utility>
#include <vector>

#include "kernels/control/divergence/divergence_kernels.h"
#include "kernels/control/divergence/divergence_paths.h"
#include "kernels/control/divergence/divergence_reference.h"
#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"

namespace warpwatch::kernels {
namespace {

const VariantTable<DivergenceBranch>& Variants() {
  static const auto& table = NewVariantTable<DivergenceBranch>({
      {"thread_branch", DivergenceBranch::kThread},
      {"warp_branch", DivergenceBranch::kWarp},
      {"predicated", DivergenceBranch::kPredicated},
  });
  return table;
}

class DivergenceFamily : public Family {
 public:
  std::string_view name() const override { return "control.divergence"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<DivergenceBranch> p, ReadPoint1D(point, Variants()));
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * static_cast<double>(p.n), prop));
    ASSIGN_OR_RETURN(const Launch1D launch,
                     ReadLaunch1D(point, p.n, 1, prop, /*whole_warps=*/true));
    const DivergenceBranch branch = p.variant;
    const int64_t n = p.n;
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_count = s.out_count = static_cast<size_t>(n);
    s.run = [branch, n, launch](const float* d_in, float* d_out, cudaStream_t stream) {
      return LaunchDivergence(branch, d_in, d_out, n, launch.grid, launch.block, stream);
    };
    // A sample, compared exactly: the CPU reference is too slow for every element.
    s.sample = [n] { return DivergenceVerifiedElements(n); };
    s.reference_at = [branch](const std::vector<int64_t>& picked) {
      return DivergenceReference(branch, picked, kSeed);
    };
    s.shape = launch.ShapeOf(DivergenceKernel(branch));
    // Useful work is one path per element; the predicated variant's second path is the waste.
    const double a = static_cast<double>(DivergencePathACount(branch, n));
    const double b = static_cast<double>(n) - a;
    s.work.bytes = 2.0 * sizeof(float) * static_cast<double>(n);
    s.work.flops = a * kDivergencePathAFlops + b * kDivergencePathBFlops;
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(DivergenceFamily);

}  // namespace
}  // namespace warpwatch::kernels
