// memory.constant: variants, axes, the table upload and verification on the elementwise case
// template (kernels/core/elementwise_case.h): the case's input is the table. The kernels are in
// constant_kernels.cu.
#include <memory>
#include <utility>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/memory/constant/constant_kernels.h"
#include "kernels/memory/constant/constant_reference.h"

namespace warpwatch::kernels {
namespace {

const VariantTable<ConstantAccess>& Variants() {
  static const auto& table = NewVariantTable<ConstantAccess>({
      {"constant_uniform", ConstantAccess::kConstantUniform},
      {"constant_divergent", ConstantAccess::kConstantDivergent},
      {"global_divergent", ConstantAccess::kGlobalDivergent},
  });
  return table;
}

class ConstantFamily : public Family {
 public:
  std::string_view name() const override { return "memory.constant"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<ConstantAccess> p, ReadPoint1D(point, Variants()));
    RETURN_IF_ERROR(CheckDeviceMemory(sizeof(float) * static_cast<double>(p.n), prop));
    ASSIGN_OR_RETURN(const Launch1D launch, ReadLaunch1D(point, p.n, 1, prop));
    const ConstantAccess access = p.variant;
    const int64_t n = p.n;
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_name = "table";
    s.in_count = kConstantTableWords;
    s.out_count = static_cast<size_t>(n);
    // The global table is the source of the __constant__ one, so both hold the same words.
    s.fill = [](float* d_table, size_t count, cudaStream_t stream) -> Status {
      RETURN_IF_ERROR(FillSeededFloats(d_table, count, kSeed, stream));
      return UploadConstantTable(d_table, stream);
    };
    s.run = [access, n, launch](const float* d_table, float* d_out, cudaStream_t stream) {
      return LaunchConstantReads(access, d_table, d_out, n, launch.grid, launch.block, stream);
    };
    s.reference = [access, n, launch] { return ConstantReference(access, n, launch.block, kSeed); };
    s.shape = launch.ShapeOf(ConstantKernel(access));
    // The table reads are the work (each feeds one FMA); the only DRAM traffic is the output.
    s.work.bytes = sizeof(float) * static_cast<double>(n);
    s.work.flops = 2.0 * kConstantReads * static_cast<double>(n);
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(ConstantFamily);

}  // namespace
}  // namespace warpwatch::kernels
