// latency.ilp: variants, axes and verification on the elementwise case template
// (kernels/core/elementwise_case.h): one element per thread of a grid sized by blocks_per_sm. The
// kernels are in ilp_kernels.cu, the chains in ilp_chains.h.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/latency/ilp/ilp_chains.h"
#include "kernels/latency/ilp/ilp_kernels.h"
#include "kernels/latency/ilp/ilp_reference.h"

namespace warpwatch::kernels {
namespace {

// Variant -> independent chains per thread.
const VariantTable<int>& Variants() {
  static const auto& table = NewVariantTable<int>({
      {"ilp1", 1},
      {"ilp2", 2},
      {"ilp4", 4},
      {"ilp8", 8},
  });
  return table;
}

class IlpFamily : public Family {
 public:
  std::string_view name() const override { return "latency.ilp"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const int ilp, LookupVariant(point, Variants()));
    const std::string key = point.Canonical();
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    ASSIGN_OR_RETURN(const int64_t per_sm, AxisValue(point, "blocks_per_sm"));
    // More blocks than fit at once would run in waves: the point would no longer set occupancy.
    if (per_sm > prop.maxBlocksPerMultiProcessor ||
        per_sm * block > prop.maxThreadsPerMultiProcessor) {
      return FailedPreconditionError(key + ": " + std::to_string(per_sm) + " blocks of " +
                                     std::to_string(block) +
                                     " threads do not fit on one SM at once");
    }
    Launch1D launch;
    launch.block = static_cast<unsigned>(block);
    launch.grid = static_cast<unsigned>(per_sm * prop.multiProcessorCount);
    const int64_t threads = int64_t{launch.grid} * launch.block;
    ElementwiseSpec<float, float> s;
    s.key = key;
    s.in_count = s.out_count = static_cast<size_t>(threads);
    s.run = [ilp, launch](const float* d_in, float* d_out, cudaStream_t stream) {
      return LaunchIlpChains(ilp, d_in, d_out, launch.grid, launch.block, stream);
    };
    s.sample = [threads] { return IlpVerifiedThreads(threads); };
    s.reference_at = [ilp](const std::vector<int64_t>& picked) {
      std::vector<float> expected;
      expected.reserve(picked.size());
      for (int64_t t : picked) {
        expected.push_back(IlpReferenceValue(ilp, SeededFloat(kSeed, static_cast<uint64_t>(t))));
      }
      return expected;
    };
    s.shape = launch.ShapeOf(IlpKernel(ilp));
    const double n = static_cast<double>(threads);
    s.work.bytes = 2.0 * sizeof(float) * n;
    s.work.flops = 2.0 * kIlpTotalFmas * n + (ilp - 1) * n;
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(IlpFamily);

}  // namespace
}  // namespace warpwatch::kernels
