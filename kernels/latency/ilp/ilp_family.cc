// latency.ilp: the Family/Case classes (the blocks-per-SM axis, verification of a sample of
// threads). The kernels are in ilp_kernels.cu, the chains in ilp_chains.h.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"
#include "kernels/core/verify.h"
#include "kernels/latency/ilp/ilp_chains.h"
#include "kernels/latency/ilp/ilp_kernels.h"
#include "kernels/latency/ilp/ilp_reference.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, int>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, int>>{
      {"ilp1", 1},
      {"ilp2", 2},
      {"ilp4", 4},
      {"ilp8", 8},
  };
  return *table;
}

struct Config {
  std::string key;
  int ilp = 1;
  unsigned block = 256;
  unsigned grid = 1;  // SM count x blocks_per_sm
};

class IlpCase : public Case {
 public:
  explicit IlpCase(Config config) : c_(std::move(config)) {}

  int64_t threads() const { return int64_t{c_.grid} * c_.block; }

  Status Setup(cudaStream_t stream) override {
    const size_t n = static_cast<size_t>(threads());
    RETURN_IF_ERROR(d_in_.Allocate(n, c_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(n, c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), n, kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchIlpChains(c_.ilp, d_in_.get(), d_out_.get(), c_.grid, c_.block, stream);
  }

  // Compares the sample of IlpVerifiedThreads exactly.
  VerifyResult Verify(cudaStream_t stream) override {
    const std::vector<int64_t> picked = IlpVerifiedThreads(threads());
    std::vector<float> expected;
    expected.reserve(picked.size());
    for (int64_t t : picked) {
      expected.push_back(IlpReferenceValue(c_.ilp, SeededFloat(kSeed, static_cast<uint64_t>(t))));
    }
    return VerifyDeviceSample(d_out_, picked, expected, c_.key, stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = IlpKernel(c_.ilp);
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  Work work() const override {
    const double n = static_cast<double>(threads());
    Work w;
    w.bytes = 2.0 * sizeof(float) * n;
    w.flops = 2.0 * kIlpTotalFmas * n + (c_.ilp - 1) * n;
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<float> d_in_;
  DeviceBuffer<float> d_out_;
};

class IlpFamily : public Family {
 public:
  std::string_view name() const override { return "latency.ilp"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.ilp, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    ASSIGN_OR_RETURN(const int64_t per_sm, AxisValue(point, "blocks_per_sm"));
    // More blocks than fit at once would run in waves: the point would no longer set occupancy.
    if (per_sm > prop.maxBlocksPerMultiProcessor ||
        per_sm * block > prop.maxThreadsPerMultiProcessor) {
      return FailedPreconditionError(c.key + ": " + std::to_string(per_sm) + " blocks of " +
                                     std::to_string(block) +
                                     " threads do not fit on one SM at once");
    }
    c.block = static_cast<unsigned>(block);
    c.grid = static_cast<unsigned>(per_sm * prop.multiProcessorCount);
    return std::unique_ptr<Case>(std::make_unique<IlpCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(IlpFamily);

}  // namespace
}  // namespace warpwatch::kernels
