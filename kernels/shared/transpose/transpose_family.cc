// shared.transpose: variants, axes and verification on the elementwise case template
// (kernels/core/elementwise_case.h) with a 2-D launch of tiles over a side x side matrix. The
// kernels are in transpose_kernels.cu.
#include <memory>
#include <string>
#include <utility>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/variant_table.h"
#include "kernels/shared/transpose/transpose_kernels.h"
#include "kernels/shared/transpose/transpose_reference.h"

namespace warpwatch::kernels {
namespace {

const VariantTable<TransposeKind>& Variants() {
  static const auto& table = NewVariantTable<TransposeKind>({
      {"copy", TransposeKind::kCopy},
      {"naive", TransposeKind::kNaive},
      {"shared_tile", TransposeKind::kSharedTile},
      {"shared_tile_padded", TransposeKind::kSharedTilePadded},
  });
  return table;
}

class TransposeFamily : public Family {
 public:
  std::string_view name() const override { return "shared.transpose"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const TransposeKind kind, LookupVariant(point, Variants()));
    const std::string key = point.Canonical();
    ASSIGN_OR_RETURN(const int64_t side, AxisValue(point, "side"));
    ASSIGN_OR_RETURN(const int64_t rows, AxisValue(point, "block_rows"));
    if (!IsSupportedTransposeBlockRows(rows)) {
      return FailedPreconditionError("block_rows " + std::to_string(rows) +
                                     " must be a power of two within the 32-row tile");
    }
    const dim3 block(kTransposeTile, static_cast<unsigned>(rows));
    RETURN_IF_ERROR(CheckBlock(block, prop));
    const double elements = static_cast<double>(side) * static_cast<double>(side);
    RETURN_IF_ERROR(CheckDeviceMemory(2.0 * sizeof(float) * elements, prop));
    ASSIGN_OR_RETURN(const unsigned tiles, GridFor(side, kTransposeTile, prop));
    if (tiles > static_cast<unsigned>(prop.maxGridSize[1])) {
      return FailedPreconditionError("side " + std::to_string(side) +
                                     " needs more tile rows than the device's grid allows");
    }
    const dim3 grid(tiles, tiles);
    ElementwiseSpec<float, float> s;
    s.key = key;
    s.in_count = s.out_count = static_cast<size_t>(side * side);
    s.run = [kind, side, grid, block](const float* d_in, float* d_out, cudaStream_t stream) {
      return LaunchTranspose(kind, d_in, d_out, side, grid, block, stream);
    };
    s.reference = [kind, side] {
      return TransposeReference(side, kind != TransposeKind::kCopy, kSeed);
    };
    s.shape.function = TransposeKernel(kind, block.y);
    s.shape.grid = grid;
    s.shape.block = block;
    s.work.bytes = 2.0 * sizeof(float) * elements;
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(TransposeFamily);

}  // namespace
}  // namespace warpwatch::kernels
