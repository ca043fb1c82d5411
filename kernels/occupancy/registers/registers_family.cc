// occupancy.registers: variants, axes and launch on the elementwise template. The grid is what the
// variant's occupancy keeps resident (blocks per SM x SMs, chosen in Setup), so a lower register
// budget shows up as more warps in flight, and a budget below the kernel's live state shows up as
// local-memory traffic.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/occupancy/registers/registers_kernels.h"
#include "kernels/occupancy/registers/registers_recurrence.h"
#include "kernels/occupancy/registers/registers_reference.h"

namespace warpwatch::kernels {
namespace {

const VariantTable<RegisterBound>& Variants() {
  static const auto& table = NewVariantTable<RegisterBound>({
      {"regs_unbounded", RegisterBound::kUnbounded},
      {"launch_bounds_512_1", RegisterBound::kBounds512x1},
      {"launch_bounds_512_2", RegisterBound::kBounds512x2},
      {"launch_bounds_1024_2", RegisterBound::kBounds1024x2},
  });
  return table;
}

// One input byte read, one float written per element.
constexpr double kBytesPerElement = sizeof(uint8_t) + sizeof(float);

class RegistersFamily : public Family {
 public:
  std::string_view name() const override { return "occupancy.registers"; }

  // Queries the kernel's attributes (a CUDA call) after the CUDA-free checks: a block above what
  // its registers allow is a skipped point, not a launch failure.
  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<RegisterBound> p, ReadPoint1D(point, Variants()));
    RETURN_IF_ERROR(CheckDeviceMemory(kBytesPerElement * static_cast<double>(p.n), prop));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    const int bound = RegisterBoundMaxThreads(p.variant);
    if (bound > 0 && block > bound) {
      return FailedPreconditionError("block_size " + std::to_string(block) +
                                     " exceeds the variant's __launch_bounds__ of " +
                                     std::to_string(bound) + " threads");
    }
    if (p.variant == RegisterBound::kBounds1024x2 && prop.maxThreadsPerMultiProcessor < 2048) {
      return FailedPreconditionError(
          "launch_bounds_1024_2 needs 2048 threads per SM for two 1024-thread blocks (this GPU "
          "has " + std::to_string(prop.maxThreadsPerMultiProcessor) + ")");
    }
    ASSIGN_OR_RETURN(cudaFuncAttributes attr, RecurrenceAttributes(p.variant));
    if (block > attr.maxThreadsPerBlock) {
      return FailedPreconditionError(
          "block_size " + std::to_string(block) + " exceeds the " +
          std::to_string(attr.maxThreadsPerBlock) + " threads per block that " +
          std::to_string(attr.numRegs) + " registers per thread allow");
    }
    const RegisterBound bound_variant = p.variant;
    const int64_t n = p.n;
    const int sm_count = prop.multiProcessorCount;
    const std::string key = p.key;
    ElementwiseSpec<uint8_t, float> s;
    s.key = p.key;
    s.in_name = "input bytes";
    s.in_count = s.out_count = static_cast<size_t>(n);
    s.shape.function = RecurrenceKernel(bound_variant);
    s.shape.block = dim3(static_cast<unsigned>(block));
    s.prepare = [bound_variant, n, sm_count, key](LaunchShape* shape) -> Status {
      ASSIGN_OR_RETURN(int per_sm, RecurrenceBlocksPerSm(bound_variant, shape->block.x));
      if (per_sm < 1) return InternalError(key + ": the kernel cannot be resident at this block");
      shape->grid = dim3(GridStrideBlocks(n, shape->block.x, per_sm, sm_count));
      return OkStatus();
    };
    s.launch = [bound_variant, n](const ElementwiseArgs<uint8_t, float>& a, cudaStream_t stream) {
      return LaunchRecurrence(bound_variant, a.d_in[0], a.d_out, n, a.shape.grid.x,
                              a.shape.block.x, stream);
    };
    s.reference = [n] { return RecurrenceReference(n, kSeed); };
    s.work.bytes = kBytesPerElement * static_cast<double>(n);
    s.work.flops = 2.0 * kStateWords * (kRounds + 1) * static_cast<double>(n);  // init + rounds
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(RegistersFamily);

}  // namespace
}  // namespace warpwatch::kernels
