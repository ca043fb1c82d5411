// memory.readonly_cache: the Family/Case classes (axes, inputs and the texture object,
// verification). The kernels are in readonly_cache_kernels.cu.
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
#include "kernels/memory/readonly_cache/readonly_cache_kernels.h"
#include "kernels/memory/readonly_cache/readonly_cache_reference.h"

namespace warpwatch::kernels {
namespace {

constexpr uint64_t kIndexSeed = kSeed + 1;
constexpr int64_t kTextureMaxElements = int64_t{1} << 27;

const std::vector<std::pair<std::string_view, ReadonlyPath>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, ReadonlyPath>>{
      {"plain", ReadonlyPath::kPlain},
      {"ldg", ReadonlyPath::kLdg},
      {"texture", ReadonlyPath::kTexture},
  };
  return *table;
}

struct Config {
  std::string key;
  ReadonlyPath path = ReadonlyPath::kLdg;
  int64_t n = 0;
  unsigned block = 256;
  unsigned grid = 1;
};

class ReadonlyCacheCase : public Case {
 public:
  explicit ReadonlyCacheCase(Config config) : c_(std::move(config)) {}
  ~ReadonlyCacheCase() override {
    if (texture_ != 0) CUDA_CHECK_NOEXCEPT(cudaDestroyTextureObject(texture_));
  }
  ReadonlyCacheCase(const ReadonlyCacheCase&) = delete;
  ReadonlyCacheCase& operator=(const ReadonlyCacheCase&) = delete;

  Status Setup(cudaStream_t stream) override {
    const size_t n = static_cast<size_t>(c_.n);
    RETURN_IF_ERROR(d_in_.Allocate(n, c_.key + " input"));
    RETURN_IF_ERROR(d_idx_.Allocate(n, c_.key + " indices"));
    RETURN_IF_ERROR(d_out_.Allocate(n, c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), n, kSeed, stream));
    RETURN_IF_ERROR(FillReadonlyIndices(d_idx_.get(), c_.n, kIndexSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    if (c_.path == ReadonlyPath::kTexture) {
      ASSIGN_OR_RETURN(texture_, MakeReadonlyTexture(d_in_.get(), c_.n));
    }
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchReadonlyGather(c_.path, d_in_.get(), texture_, d_idx_.get(), d_out_.get(), c_.n,
                                c_.grid, c_.block, stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_out_, ReadonlyCacheReference(c_.n, kSeed, kIndexSeed), c_.key,
                              stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = ReadonlyGatherKernel(c_.path);
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  // Per output: its index, the float gathered and the float written.
  Work work() const override {
    Work w;
    w.bytes = (2.0 * sizeof(float) + sizeof(int)) * static_cast<double>(c_.n);
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<float> d_in_;
  DeviceBuffer<int> d_idx_;
  DeviceBuffer<float> d_out_;
  cudaTextureObject_t texture_ = 0;
};

class ReadonlyCacheFamily : public Family {
 public:
  std::string_view name() const override { return "memory.readonly_cache"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.path, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    if (c.n > int64_t{1} << 30) return InvalidArgumentError(c.key + ": n must be <= 2^30");
    // The guide's 1D linear texture width limit is 2^27 elements up to compute capability 8.x
    // (CUDA 13's cudaDeviceProp no longer carries it); nothing larger is attempted.
    if (c.path == ReadonlyPath::kTexture && c.n > kTextureMaxElements) {
      return FailedPreconditionError(c.key + ": " + std::to_string(c.n) +
                                     " floats exceed the 1D linear texture limit of 2^27");
    }
    RETURN_IF_ERROR(CheckDeviceMemory(12.0 * static_cast<double>(c.n), prop));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block, prop));
    return std::unique_ptr<Case>(std::make_unique<ReadonlyCacheCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(ReadonlyCacheFamily);

}  // namespace
}  // namespace warpwatch::kernels
