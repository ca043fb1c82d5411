// memory.alignment: variants, axes and verification on the elementwise case template
// (kernels/core/elementwise_case.h). The kernel is in alignment_kernels.cu.
#include <memory>
#include <string>
#include <utility>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/memory/alignment/alignment_kernels.h"
#include "kernels/memory/alignment/alignment_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kAligned, kMisaligned };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"aligned", Variant::kAligned},
      {"misaligned", Variant::kMisaligned},
  });
  return table;
}

class AlignmentFamily : public Family {
 public:
  std::string_view name() const override { return "memory.alignment"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<Variant> p, ReadPoint1D(point, Variants()));
    int64_t offset = 0;
    if (p.variant == Variant::kMisaligned) {
      ASSIGN_OR_RETURN(offset, AxisValue(point, "offset"));
      if (offset > kAlignmentMaxOffset) {
        return InvalidArgumentError(p.key +
                                    ": offset must be <= " + std::to_string(kAlignmentMaxOffset));
      }
    }
    RETURN_IF_ERROR(CheckDeviceMemory(
        sizeof(float) * (2.0 * static_cast<double>(p.n) + kAlignmentMaxOffset), prop));
    ASSIGN_OR_RETURN(const Launch1D launch,
                     ReadLaunch1D(point, p.n, kAlignmentElementsPerThread, prop));
    const int64_t n = p.n;
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_count = static_cast<size_t>(n + kAlignmentMaxOffset);
    s.out_count = static_cast<size_t>(n);
    s.run = [n, offset, launch](const float* d_in, float* d_out, cudaStream_t stream) {
      return LaunchAlignmentCopy(d_in, d_out, n, offset, launch.grid, launch.block, stream);
    };
    s.reference = [n, offset] { return AlignmentReference(n, offset, kSeed); };
    s.shape = launch.ShapeOf(AlignmentKernel());
    // n floats read and n written, wherever the read starts.
    s.work.bytes = 2.0 * sizeof(float) * static_cast<double>(n);
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(AlignmentFamily);

}  // namespace
}  // namespace warpwatch::kernels
