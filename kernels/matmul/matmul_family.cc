// matmul (notes 2.3.1): the Family/Case classes. Work counts 2 side^3 flops and the 3 side^2
// floats the product must read and write; "fraction of cuBLAS" is a variant's median against the
// cublas variant's at the same side.
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/matmul/matmul_cublas.h"
#include "kernels/matmul/matmul_kernels.h"
#include "kernels/matmul/matmul_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kNaive, kTiled, kCublas };

const std::vector<std::pair<std::string_view, Variant>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, Variant>>{
      {"naive", Variant::kNaive},
      {"shared_tiled", Variant::kTiled},
      {"cublas", Variant::kCublas},
  };
  return *table;
}

// Entries of C compared with the CPU reference (plus the corners).
constexpr int kSampledEntries = 2048;

struct Config {
  std::string key;
  Variant variant = Variant::kNaive;
  int side = 0;
  int tile = 16;
};

class MatmulCase : public Case {
 public:
  explicit MatmulCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    const size_t count = static_cast<size_t>(c_.side) * c_.side;
    if (c_.variant == Variant::kCublas) {
      ASSIGN_OR_RETURN(cublas_, CublasSgemm::Create());
    }
    RETURN_IF_ERROR(d_a_.Allocate(count, c_.key + " A"));
    RETURN_IF_ERROR(d_b_.Allocate(count, c_.key + " B"));
    RETURN_IF_ERROR(d_c_.Allocate(count, c_.key + " C"));
    RETURN_IF_ERROR(FillMatmulInput(d_a_.get(), static_cast<int64_t>(count), kMatmulSeedA, stream));
    RETURN_IF_ERROR(FillMatmulInput(d_b_.get(), static_cast<int64_t>(count), kMatmulSeedB, stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  // C cleared before every run, so a variant that writes nothing fails Verify.
  Status Reset(cudaStream_t stream) override {
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_c_.get(), 0, d_c_.bytes(), stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    switch (c_.variant) {
      case Variant::kNaive:
        return LaunchNaiveMatmul(d_a_.get(), d_b_.get(), d_c_.get(), c_.side, stream);
      case Variant::kTiled:
        return LaunchTiledMatmul(c_.tile, d_a_.get(), d_b_.get(), d_c_.get(), c_.side, stream);
      case Variant::kCublas:
        return cublas_->Multiply(d_a_.get(), d_b_.get(), d_c_.get(), c_.side, stream);
    }
    return InternalError("unreachable");
  }

  VerifyResult Verify(cudaStream_t stream) override {
    VerifyResult result;
    const cudaError_t err = cudaStreamSynchronize(stream);
    if (err != cudaSuccess) {
      result.status = CudaError(err, "cudaStreamSynchronize(stream)", __FILE__, __LINE__);
      return result;
    }
    StatusOr<std::vector<float>> got = d_c_.CopyToHost();
    if (!got.ok()) {
      result.status = got.status().Annotate(c_.key);
      return result;
    }
    int mismatches = 0;
    std::ostringstream first;
    const auto entries = MatmulSampledEntries(c_.side, kSampledEntries);
    for (const auto& [row, col] : entries) {
      const float expected = MatmulReferenceEntry(c_.side, row, col);
      const float actual = (*got)[static_cast<size_t>(row) * c_.side + col];
      if (actual == expected) continue;
      const double diff = std::fabs(static_cast<double>(actual) - expected);
      if (!(diff <= result.max_error)) result.max_error = diff;
      if (mismatches++ == 0) {
        first << "C[" << row << "][" << col << "]: expected " << expected << ", got " << actual;
      }
    }
    if (mismatches > 0) {
      result.status = InternalError(
          c_.key + ": " + std::to_string(mismatches) + " of " + std::to_string(entries.size()) +
          " sampled entries differ from the exact product; first " + first.str());
    }
    return result;
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    if (c_.variant == Variant::kNaive) {
      shape.function = NaiveMatmulKernel();
      shape.block = dim3(kNaiveMatmulBlock, kNaiveMatmulBlock);
      shape.grid = dim3(c_.side / kNaiveMatmulBlock, c_.side / kNaiveMatmulBlock);
    } else if (c_.variant == Variant::kTiled) {
      shape.function = TiledMatmulKernel(c_.tile);
      shape.block = dim3(c_.tile, c_.tile);
      shape.grid = dim3(c_.side / c_.tile, c_.side / c_.tile);
    }
    return shape;  // cuBLAS: its own kernels, no occupancy of ours
  }

  Work work() const override {
    const double side = c_.side;
    Work w;
    w.bytes = 3.0 * sizeof(float) * side * side;
    w.flops = 2.0 * side * side * side;
    return w;
  }

 private:
  Config c_;
  std::unique_ptr<CublasSgemm> cublas_;
  DeviceBuffer<float> d_a_;
  DeviceBuffer<float> d_b_;
  DeviceBuffer<float> d_c_;
};

class MatmulFamily : public Family {
 public:
  std::string_view name() const override { return "matmul"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.variant, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(const int64_t side, AxisValue(point, "side"));
    if (side % 32 != 0 || side > (1 << 18)) {
      return InvalidArgumentError(c.key + ": side must be a multiple of 32 up to 2^18");
    }
    c.side = static_cast<int>(side);
    if (c.variant == Variant::kTiled) {
      ASSIGN_OR_RETURN(const int64_t tile, AxisValue(point, "tile"));
      if (TiledMatmulKernel(static_cast<int>(tile)) == nullptr) {
        return InvalidArgumentError(c.key + ": tile must be 8, 16 or 32");
      }
      c.tile = static_cast<int>(tile);
      RETURN_IF_ERROR(CheckBlock(dim3(c.tile, c.tile), prop));
    }
    RETURN_IF_ERROR(CheckDeviceMemory(3.0 * sizeof(float) * side * side, prop));
    return std::unique_ptr<Case>(std::make_unique<MatmulCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(MatmulFamily);

}  // namespace
}  // namespace warpwatch::kernels
