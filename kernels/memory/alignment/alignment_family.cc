// memory.alignment: the Family/Case classes (axes, launch configuration, verification). The
// kernel is in alignment_kernels.cu.
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
#include "kernels/memory/alignment/alignment_kernels.h"
#include "kernels/memory/alignment/alignment_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kAligned, kMisaligned };

const std::vector<std::pair<std::string_view, Variant>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, Variant>>{
      {"aligned", Variant::kAligned},
      {"misaligned", Variant::kMisaligned},
  };
  return *table;
}

struct Config {
  std::string key;
  int64_t n = 0;
  int64_t offset = 0;
  unsigned block = 256;
  unsigned grid = 1;
};

class AlignmentCase : public Case {
 public:
  explicit AlignmentCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    const size_t in_count = static_cast<size_t>(c_.n + kAlignmentMaxOffset);
    RETURN_IF_ERROR(d_in_.Allocate(in_count, c_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(static_cast<size_t>(c_.n), c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), in_count, kSeed, stream));
    // A known non-answer in the output, so a kernel that writes nothing fails Verify.
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchAlignmentCopy(d_in_.get(), d_out_.get(), c_.n, c_.offset, c_.grid, c_.block,
                               stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_out_, AlignmentReference(c_.n, c_.offset, kSeed), c_.key, stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = AlignmentKernel();
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  // n floats read and n written, wherever the read starts.
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

class AlignmentFamily : public Family {
 public:
  std::string_view name() const override { return "memory.alignment"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Variant variant, LookupVariant(point, Variants()));
    Config c;
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    if (variant == Variant::kMisaligned) {
      ASSIGN_OR_RETURN(c.offset, AxisValue(point, "offset"));
      if (c.offset > kAlignmentMaxOffset) {
        return InvalidArgumentError(c.key +
                                    ": offset must be <= " + std::to_string(kAlignmentMaxOffset));
      }
    }
    RETURN_IF_ERROR(CheckDeviceMemory(
        sizeof(float) * (2.0 * static_cast<double>(c.n) + kAlignmentMaxOffset), prop));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block * kAlignmentElementsPerThread, prop));
    return std::unique_ptr<Case>(std::make_unique<AlignmentCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(AlignmentFamily);

}  // namespace
}  // namespace warpwatch::kernels
