// memory.local: the Family/Case classes (axes, launch configuration, verification). The kernels
// are in local_kernels.cu, the per-thread computation in local_array.h.
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
#include "kernels/memory/local/local_array.h"
#include "kernels/memory/local/local_kernels.h"
#include "kernels/memory/local/local_reference.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, LocalIndexing>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, LocalIndexing>>{
      {"dynamic_index", LocalIndexing::kDynamic},
      {"unrolled_registers", LocalIndexing::kRegisters},
  };
  return *table;
}

struct Config {
  std::string key;
  LocalIndexing indexing = LocalIndexing::kRegisters;
  int64_t n = 0;
  int64_t size = 8;
  unsigned block = 256;
  unsigned grid = 1;
};

class LocalCase : public Case {
 public:
  explicit LocalCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_in_.Allocate(static_cast<size_t>(c_.n), c_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(static_cast<size_t>(c_.n), c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), d_in_.size(), kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchLocalArray(c_.indexing, c_.size, d_in_.get(), d_out_.get(), c_.n, c_.grid,
                            c_.block, stream);
  }

  // Compares the sample of LocalVerifiedElements exactly (the CPU reference is too slow for every
  // element).
  VerifyResult Verify(cudaStream_t stream) override {
    const std::vector<int64_t> picked = LocalVerifiedElements(c_.n);
    return VerifyDeviceSample(
        d_out_, picked, LocalReference(picked, static_cast<int>(c_.size), kSeed), c_.key, stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = LocalArrayKernel(c_.indexing, c_.size);
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  // One float in and one out per thread; per thread, `size` FMAs build the array and
  // kLocalRounds * size FMAs fold it. Local-memory traffic is the waste, not work.
  Work work() const override {
    const double n = static_cast<double>(c_.n);
    Work w;
    w.bytes = 2.0 * sizeof(float) * n;
    w.flops = 2.0 * n * static_cast<double>(c_.size) * (1 + kLocalRounds);
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<float> d_in_;
  DeviceBuffer<float> d_out_;
};

class LocalFamily : public Family {
 public:
  std::string_view name() const override { return "memory.local"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.indexing, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    ASSIGN_OR_RETURN(c.size, AxisValue(point, "array_size"));
    if (!LocalArraySizeSupported(c.size)) {
      return InvalidArgumentError(c.key + ": array_size must be 4, 8, 16, 32 or 64");
    }
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * static_cast<double>(c.n), prop));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block, prop));
    return std::unique_ptr<Case>(std::make_unique<LocalCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(LocalFamily);

}  // namespace
}  // namespace warpwatch::kernels
