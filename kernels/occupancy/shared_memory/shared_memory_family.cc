// occupancy.shared_memory: the dynamic shared memory of each variant, on the elementwise case
// template (kernels/core/elementwise_case.h). The kernel is in shared_memory_kernels.cu.
#include <memory>
#include <string>
#include <utility>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/occupancy/shared_memory/shared_memory_kernels.h"
#include "kernels/occupancy/shared_memory/shared_memory_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kMinimal, kPadded };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"minimal", Variant::kMinimal},
      {"padded", Variant::kPadded},
  });
  return table;
}

class SharedMemoryFamily : public Family {
 public:
  std::string_view name() const override { return "occupancy.shared_memory"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<Variant> p, ReadPoint1D(point, Variants()));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    const size_t needed = static_cast<size_t>(block) * sizeof(float);
    size_t shared_bytes = needed;  // dynamic shared memory per block
    if (p.variant == Variant::kPadded) {
      ASSIGN_OR_RETURN(const int64_t bytes, AxisValue(point, "shared_bytes"));
      if (static_cast<size_t>(bytes) < needed) {
        return InvalidArgumentError(
            p.key + ": shared_bytes must be at least block_size * 4 = " + std::to_string(needed));
      }
      shared_bytes = static_cast<size_t>(bytes);
    }
    RETURN_IF_ERROR(CheckSharedBytes(shared_bytes, prop));
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * static_cast<double>(p.n), prop));
    Launch1D launch;
    launch.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(launch.grid, GridFor(p.n, block, prop));
    const int64_t n = p.n;
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_count = s.out_count = static_cast<size_t>(n);
    // Setup, outside the timed region: the kernel may use shared_bytes (an opt-in above 48 KiB).
    s.fill = [shared_bytes](float* d_in, size_t count, cudaStream_t stream) -> Status {
      RETURN_IF_ERROR(AllowSharedReverseBytes(shared_bytes));
      return FillSeeded(d_in, count, stream);
    };
    s.run = [n, launch, shared_bytes](const float* d_in, float* d_out, cudaStream_t stream) {
      return LaunchSharedReverse(d_in, d_out, n, launch.grid, launch.block, shared_bytes, stream);
    };
    s.reference = [n, launch] { return SharedReverseReference(n, launch.block, kSeed); };
    s.shape = launch.ShapeOf(SharedReverseKernel());
    s.shape.dynamic_shared_bytes = shared_bytes;
    s.work.bytes = 2.0 * sizeof(float) * static_cast<double>(n);
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(SharedMemoryFamily);

}  // namespace
}  // namespace warpwatch::kernels
