// occupancy.shared_memory: the Family/Case classes (the dynamic shared memory of each variant,
// verification). The kernel is in shared_memory_kernels.cu.
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
#include "kernels/occupancy/shared_memory/shared_memory_kernels.h"
#include "kernels/occupancy/shared_memory/shared_memory_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kMinimal, kPadded };

const std::vector<std::pair<std::string_view, Variant>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, Variant>>{
      {"minimal", Variant::kMinimal},
      {"padded", Variant::kPadded},
  };
  return *table;
}

struct Config {
  std::string key;
  int64_t n = 0;
  unsigned block = 256;
  unsigned grid = 1;
  size_t shared_bytes = 0;  // dynamic shared memory per block
};

class SharedMemoryCase : public Case {
 public:
  explicit SharedMemoryCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(AllowSharedReverseBytes(c_.shared_bytes));
    RETURN_IF_ERROR(d_in_.Allocate(static_cast<size_t>(c_.n), c_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(static_cast<size_t>(c_.n), c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), d_in_.size(), kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchSharedReverse(d_in_.get(), d_out_.get(), c_.n, c_.grid, c_.block, c_.shared_bytes,
                               stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_out_, SharedReverseReference(c_.n, c_.block, kSeed), c_.key,
                              stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = SharedReverseKernel();
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    shape.dynamic_shared_bytes = c_.shared_bytes;
    return shape;
  }

  Work work() const override {
    Work w;
    w.bytes = 2.0 * sizeof(float) * static_cast<double>(c_.n);
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<float> d_in_;
  DeviceBuffer<float> d_out_;
};

class SharedMemoryFamily : public Family {
 public:
  std::string_view name() const override { return "occupancy.shared_memory"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Variant variant, LookupVariant(point, Variants()));
    Config c;
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    const size_t needed = static_cast<size_t>(block) * sizeof(float);
    c.shared_bytes = needed;
    if (variant == Variant::kPadded) {
      ASSIGN_OR_RETURN(const int64_t bytes, AxisValue(point, "shared_bytes"));
      if (static_cast<size_t>(bytes) < needed) {
        return InvalidArgumentError(
            c.key + ": shared_bytes must be at least block_size * 4 = " + std::to_string(needed));
      }
      c.shared_bytes = static_cast<size_t>(bytes);
    }
    RETURN_IF_ERROR(CheckSharedBytes(c.shared_bytes, prop));
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * static_cast<double>(c.n), prop));
    ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block, prop));
    return std::unique_ptr<Case>(std::make_unique<SharedMemoryCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(SharedMemoryFamily);

}  // namespace
}  // namespace warpwatch::kernels
