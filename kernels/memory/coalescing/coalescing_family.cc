// memory.coalescing: the Family/Case classes (axes, launch configuration, verification). The
// kernels are in coalescing_kernels.cu.
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
#include "kernels/memory/coalescing/coalescing_kernels.h"
#include "kernels/memory/coalescing/coalescing_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kCopy, kScattered, kStrided, kMemcpy };

const std::vector<std::pair<std::string_view, Variant>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, Variant>>{
      {"copy", Variant::kCopy},
      {"scattered", Variant::kScattered},
      {"strided", Variant::kStrided},
      {"memcpy", Variant::kMemcpy},
  };
  return *table;
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

struct Config {
  std::string key;  // the point's canonical key, for messages
  Variant variant = Variant::kCopy;
  int64_t n = 0;
  int64_t stride = 1;
  unsigned block = 256;
  unsigned grid = 1;
};

class CoalescingCase : public Case {
 public:
  explicit CoalescingCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    const size_t in_count = static_cast<size_t>(c_.n * c_.stride);
    RETURN_IF_ERROR(d_in_.Allocate(in_count, c_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(static_cast<size_t>(c_.n), c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), in_count, kSeed, stream));
    // A known non-answer in the output, so a variant that writes nothing fails Verify.
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    if (c_.variant == Variant::kMemcpy) {
      CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(d_out_.get(), d_in_.get(), d_out_.bytes(),
                                           cudaMemcpyDeviceToDevice, stream));
      return OkStatus();
    }
    return LaunchCoalescingCopy(PatternOf(c_.variant), d_in_.get(), d_out_.get(), c_.n, c_.stride,
                                c_.grid, c_.block, stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_out_, CoalescingReference(c_.n, c_.stride, kSeed), c_.key, stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    if (c_.variant == Variant::kMemcpy) return shape;
    shape.function = CoalescingKernel(PatternOf(c_.variant));
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
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

class CoalescingFamily : public Family {
 public:
  std::string_view name() const override { return "memory.coalescing"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.variant, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    if (c.variant == Variant::kStrided) {
      ASSIGN_OR_RETURN(c.stride, AxisValue(point, "stride"));
    }
    RETURN_IF_ERROR(CheckDeviceMemory(
        static_cast<double>(sizeof(float)) * static_cast<double>(c.n) * (c.stride + 1), prop));
    if (c.variant != Variant::kMemcpy) {
      ASSIGN_OR_RETURN(int64_t block, AxisValue(point, "block_size"));
      RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
      c.block = static_cast<unsigned>(block);
      ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block * kCoalescingElementsPerThread, prop));
    }
    return std::unique_ptr<Case>(std::make_unique<CoalescingCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(CoalescingFamily);

}  // namespace
}  // namespace warpwatch::kernels
