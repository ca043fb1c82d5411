// occupancy.block_size: the Family/Case classes. `fixed` launches at the block_size axis;
// `occupancy_api` lets cudaOccupancyMaxPotentialBlockSize choose (in Setup, on the device).
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
#include "kernels/occupancy/block_size/block_size_kernels.h"
#include "kernels/occupancy/block_size/block_size_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kFixed, kOccupancyApi };

const std::vector<std::pair<std::string_view, Variant>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, Variant>>{
      {"fixed", Variant::kFixed},
      {"occupancy_api", Variant::kOccupancyApi},
  };
  return *table;
}

struct Config {
  std::string key;
  Variant variant = Variant::kFixed;
  int64_t n = 0;
  unsigned block = 0;  // kOccupancyApi: chosen in Setup
  unsigned grid = 1;
  int max_grid = 1;    // prop.maxGridSize[0]
};

class BlockSizeCase : public Case {
 public:
  explicit BlockSizeCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    if (c_.variant == Variant::kOccupancyApi) {
      ASSIGN_OR_RETURN(int block, SaxpyPotentialBlockSize());
      c_.block = static_cast<unsigned>(block);
      const int64_t grid = CeilDiv(c_.n, block);
      if (grid > c_.max_grid) return InternalError(c_.key + ": grid above the device maximum");
      c_.grid = static_cast<unsigned>(grid);
    }
    const size_t n = static_cast<size_t>(c_.n);
    RETURN_IF_ERROR(d_x_.Allocate(n, c_.key + " x"));
    RETURN_IF_ERROR(d_y_.Allocate(n, c_.key + " y"));
    RETURN_IF_ERROR(d_out_.Allocate(n, c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_x_.get(), n, kSeed, stream));
    RETURN_IF_ERROR(FillSeededFloats(d_y_.get(), n, kSeed + 1, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    return LaunchSaxpy(kSaxpyScale, d_x_.get(), d_y_.get(), d_out_.get(), c_.n, c_.grid, c_.block,
                       stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_out_, SaxpyReference(c_.n, kSeed), c_.key, stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = SaxpyKernel();
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  Work work() const override {
    Work w;
    w.bytes = 3.0 * sizeof(float) * static_cast<double>(c_.n);
    w.flops = 2.0 * static_cast<double>(c_.n);
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<float> d_x_;
  DeviceBuffer<float> d_y_;
  DeviceBuffer<float> d_out_;
};

class BlockSizeFamily : public Family {
 public:
  std::string_view name() const override { return "occupancy.block_size"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.variant, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    c.max_grid = prop.maxGridSize[0];
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    RETURN_IF_ERROR(CheckDeviceMemory(3.0 * sizeof(float) * static_cast<double>(c.n), prop));
    if (c.variant == Variant::kFixed) {
      ASSIGN_OR_RETURN(int64_t block, AxisValue(point, "block_size"));
      RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
      c.block = static_cast<unsigned>(block);
      ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block, prop));
    } else {
      // The smallest block the API can pick is one warp: the grid must fit at that size too.
      RETURN_IF_ERROR(GridFor(c.n, prop.warpSize > 0 ? prop.warpSize : 32, prop).status());
    }
    return std::unique_ptr<Case>(std::make_unique<BlockSizeCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(BlockSizeFamily);

}  // namespace
}  // namespace warpwatch::kernels
