// control.unroll: the Family/Case classes (axes, launch configuration, verification). The
// kernels are in unroll_kernels.cu, the loop's step in unroll_step.h.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/control/unroll/unroll_kernels.h"
#include "kernels/control/unroll/unroll_reference.h"
#include "kernels/control/unroll/unroll_step.h"
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

const std::vector<std::pair<std::string_view, UnrollFactor>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, UnrollFactor>>{
      {"unroll_1", UnrollFactor::kOne},
      {"unroll_4", UnrollFactor::kFour},
      {"unroll_full", UnrollFactor::kFull},
  };
  return *table;
}

struct Config {
  std::string key;
  UnrollFactor factor = UnrollFactor::kFull;
  int64_t n = 0;
  unsigned block = 256;
  unsigned grid = 1;
};

class UnrollCase : public Case {
 public:
  explicit UnrollCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_in_.Allocate(static_cast<size_t>(c_.n), c_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(static_cast<size_t>(c_.n), c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), d_in_.size(), kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchUnroll(c_.factor, d_in_.get(), d_out_.get(), c_.n, c_.grid, c_.block, stream);
  }

  // Compares the sample of UnrollVerifiedElements exactly (the CPU reference is too slow for every
  // element).
  VerifyResult Verify(cudaStream_t stream) override {
    const std::vector<int64_t> picked = UnrollVerifiedElements(c_.n);
    return VerifyDeviceSample(d_out_, picked, UnrollReference(picked, kSeed), c_.key, stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = UnrollKernel(c_.factor);
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  // Per element and step: one add and one FMA (3 operations); the loop's own counter, compare
  // and branch are the overhead unrolling removes, not work.
  Work work() const override {
    const double n = static_cast<double>(c_.n);
    Work w;
    w.bytes = 2.0 * sizeof(float) * n;
    w.flops = 3.0 * kUnrollInnerSteps * kUnrollOuterReps * n;
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<float> d_in_;
  DeviceBuffer<float> d_out_;
};

class UnrollFamily : public Family {
 public:
  std::string_view name() const override { return "control.unroll"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.factor, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * static_cast<double>(c.n), prop));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block, prop));
    return std::unique_ptr<Case>(std::make_unique<UnrollCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(UnrollFamily);

}  // namespace
}  // namespace warpwatch::kernels
