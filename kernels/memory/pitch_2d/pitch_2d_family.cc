// memory.pitch_2d: variants (the two row layouts), axes and launch on the 2-D template. The kernel
// is in pitch_2d_kernels.cu.
#include <memory>
#include <string>
#include <utility>

#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/pitched_case.h"
#include "kernels/core/point_params.h"
#include "kernels/core/variant_table.h"
#include "kernels/memory/pitch_2d/pitch_2d_kernels.h"
#include "kernels/memory/pitch_2d/pitch_2d_reference.h"

namespace warpwatch::kernels {
namespace {

const VariantTable<RowLayout>& Variants() {
  static const auto& table = NewVariantTable<RowLayout>({
      {"packed", RowLayout::kPacked},
      {"pitched", RowLayout::kPitched},
  });
  return table;
}

class Pitch2dFamily : public Family {
 public:
  std::string_view name() const override { return "memory.pitch_2d"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    PitchedSpec s;
    ASSIGN_OR_RETURN(s.layout, LookupVariant(point, Variants()));
    s.key = point.Canonical();
    ASSIGN_OR_RETURN(s.width, AxisValue(point, "width"));
    ASSIGN_OR_RETURN(s.height, AxisValue(point, "height"));
    const int64_t width = s.width;
    const int64_t height = s.height;
    // Input, output (each at most one 512-byte pitch alignment wider per row) and the staging copy.
    RETURN_IF_ERROR(CheckDeviceMemory(
        sizeof(float) * static_cast<double>(height) * (3.0 * static_cast<double>(width) + 256),
        prop));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    dim3 grid;
    ASSIGN_OR_RETURN(grid.x, GridFor(width, block, prop));
    grid.y = static_cast<unsigned>(height < kPitch2dMaxGridRows ? height : kPitch2dMaxGridRows);
    s.shape.function = Pitch2dKernel();
    s.shape.grid = grid;
    s.shape.block = dim3(static_cast<unsigned>(block));
    const unsigned threads = static_cast<unsigned>(block);
    s.run = [width, height, grid, threads](const PitchedMatrix& in, const PitchedMatrix& out,
                                           cudaStream_t stream) {
      return LaunchPitch2dScale(in.get(), out.get(), width, height, out.pitch_elements(), grid,
                                threads, stream);
    };
    s.reference = [width, height] { return Pitch2dReference(width, height, kSeed); };
    s.work.bytes = 2.0 * sizeof(float) * static_cast<double>(width) * static_cast<double>(height);
    s.work.flops = static_cast<double>(width) * static_cast<double>(height);
    return MakePitchedCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(Pitch2dFamily);

}  // namespace
}  // namespace warpwatch::kernels
