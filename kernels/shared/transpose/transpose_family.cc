// shared.transpose: the Family/Case classes (axes, launch configuration, verification). The
// kernels are in transpose_kernels.cu.
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
#include "kernels/shared/transpose/transpose_kernels.h"
#include "kernels/shared/transpose/transpose_reference.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, TransposeKind>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, TransposeKind>>{
      {"copy", TransposeKind::kCopy},
      {"naive", TransposeKind::kNaive},
      {"shared_tile", TransposeKind::kSharedTile},
      {"shared_tile_padded", TransposeKind::kSharedTilePadded},
  };
  return *table;
}

struct Config {
  std::string key;
  TransposeKind kind = TransposeKind::kSharedTilePadded;
  int64_t side = 0;
  dim3 block{kTransposeTile, 8, 1};
  dim3 grid{1, 1, 1};
};

class TransposeCase : public Case {
 public:
  explicit TransposeCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    const size_t count = static_cast<size_t>(c_.side * c_.side);
    RETURN_IF_ERROR(d_in_.Allocate(count, c_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(count, c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), count, kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchTranspose(c_.kind, d_in_.get(), d_out_.get(), c_.side, c_.grid, c_.block, stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(
        d_out_, TransposeReference(c_.side, c_.kind != TransposeKind::kCopy, kSeed), c_.key,
        stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = TransposeKernel(c_.kind, c_.block.y);
    shape.grid = c_.grid;
    shape.block = c_.block;
    return shape;
  }

  Work work() const override {
    Work w;
    w.bytes = 2.0 * sizeof(float) * static_cast<double>(c_.side) * static_cast<double>(c_.side);
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<float> d_in_;
  DeviceBuffer<float> d_out_;
};

class TransposeFamily : public Family {
 public:
  std::string_view name() const override { return "shared.transpose"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.kind, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.side, AxisValue(point, "side"));
    ASSIGN_OR_RETURN(int64_t rows, AxisValue(point, "block_rows"));
    if (!IsSupportedTransposeBlockRows(rows)) {
      return FailedPreconditionError("block_rows " + std::to_string(rows) +
                                     " must be a power of two within the 32-row tile");
    }
    c.block = dim3(kTransposeTile, static_cast<unsigned>(rows));
    RETURN_IF_ERROR(CheckBlock(c.block, prop));
    RETURN_IF_ERROR(CheckDeviceMemory(
        2.0 * sizeof(float) * static_cast<double>(c.side) * static_cast<double>(c.side), prop));
    ASSIGN_OR_RETURN(unsigned tiles, GridFor(c.side, kTransposeTile, prop));
    if (tiles > static_cast<unsigned>(prop.maxGridSize[1])) {
      return FailedPreconditionError("side " + std::to_string(c.side) +
                                     " needs more tile rows than the device's grid allows");
    }
    c.grid = dim3(tiles, tiles);
    return std::unique_ptr<Case>(std::make_unique<TransposeCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(TransposeFamily);

}  // namespace
}  // namespace warpwatch::kernels
