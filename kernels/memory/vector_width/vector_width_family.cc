// memory.vector_width: variants, axes and verification on the elementwise case template
// (kernels/core/elementwise_case.h). The kernels are in vector_width_kernels.cu.
#include <cstdint>
#include <memory>
#include <utility>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/memory/vector_width/vector_width_kernels.h"
#include "kernels/memory/vector_width/vector_width_reference.h"

namespace warpwatch::kernels {
namespace {

// Variant -> bytes per word.
const VariantTable<int>& Variants() {
  static const auto& table = NewVariantTable<int>({
      {"w1", 1},
      {"w2", 2},
      {"w4", 4},
      {"w8", 8},
      {"w16", 16},
  });
  return table;
}

class VectorWidthFamily : public Family {
 public:
  std::string_view name() const override { return "memory.vector_width"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<int> p, ReadPoint1D(point, Variants()));
    const int word_bytes = p.variant;
    const int64_t bytes = p.n * static_cast<int64_t>(sizeof(float));  // 4n: n float elements
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * static_cast<double>(bytes), prop));
    ASSIGN_OR_RETURN(const Launch1D launch,
                     ReadLaunch1D(point, bytes / word_bytes, kVectorWordsPerThread, prop));
    ElementwiseSpec<uint8_t, uint8_t> s;
    s.key = p.key;
    s.in_count = static_cast<size_t>(bytes);
    s.out_count = static_cast<size_t>(bytes);
    s.run = [word_bytes, bytes, launch](const uint8_t* d_in, uint8_t* d_out, cudaStream_t stream) {
      return LaunchVectorCopy(word_bytes, d_in, d_out, bytes, launch.grid, launch.block, stream);
    };
    s.reference = [bytes] { return VectorWidthReference(bytes, kSeed); };
    s.shape = launch.ShapeOf(VectorCopyKernel(word_bytes));
    s.work.bytes = 2.0 * static_cast<double>(bytes);
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(VectorWidthFamily);

}  // namespace
}  // namespace warpwatch::kernels
