// control.divergence: the Family/Case classes (axes, launch configuration, verification). The
// kernels are in divergence_kernels.cu, the two paths in divergence_paths.h.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/control/divergence/divergence_kernels.h"
#include "kernels/control/divergence/divergence_paths.h"
#include "kernels/control/divergence/divergence_reference.h"
#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"
#include "kernels/core/verify.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, DivergenceBranch>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, DivergenceBranch>>{
      {"thread_branch", DivergenceBranch::kThread},
      {"warp_branch", DivergenceBranch::kWarp},
      {"predicated", DivergenceBranch::kPredicated},
  };
  return *table;
}

struct Config {
  std::string key;
  DivergenceBranch branch = DivergenceBranch::kWarp;
  int64_t n = 0;
  unsigned block = 256;
  unsigned grid = 1;
};

class DivergenceCase : public Case {
 public:
  explicit DivergenceCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_in_.Allocate(static_cast<size_t>(c_.n), c_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(static_cast<size_t>(c_.n), c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), d_in_.size(), kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchDivergence(c_.branch, d_in_.get(), d_out_.get(), c_.n, c_.grid, c_.block, stream);
  }

  // Compares the sample of DivergenceVerifiedElements exactly (the CPU reference is too slow for
  // every element).
  VerifyResult Verify(cudaStream_t stream) override {
    const std::vector<int64_t> picked = DivergenceVerifiedElements(c_.n);
    return VerifyDeviceSample(d_out_, picked, DivergenceReference(c_.branch, picked, kSeed), c_.key,
                              stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = DivergenceKernel(c_.branch);
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  // Useful work is one path per element; the predicated variant's second path is the waste.
  Work work() const override {
    const double a = static_cast<double>(DivergencePathACount(c_.branch, c_.n));
    const double b = static_cast<double>(c_.n) - a;
    Work w;
    w.bytes = 2.0 * sizeof(float) * static_cast<double>(c_.n);
    w.flops = a * kDivergencePathAFlops + b * kDivergencePathBFlops;
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<float> d_in_;
  DeviceBuffer<float> d_out_;
};

class DivergenceFamily : public Family {
 public:
  std::string_view name() const override { return "control.divergence"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.branch, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * static_cast<double>(c.n), prop));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    if (block % 32 != 0) return InvalidArgumentError(c.key + ": block_size must be whole warps");
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block, prop));
    return std::unique_ptr<Case>(std::make_unique<DivergenceCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(DivergenceFamily);

}  // namespace
}  // namespace warpwatch::kernels
