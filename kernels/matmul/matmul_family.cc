// matmul (notes 2.3.1): variants, axes and launch on the elementwise template (inputs A and B, C
// cleared before every run, a sample of C's entries verified). Work counts 2 side^3 flops and the
// 3 side^2 floats the product must read and write; "fraction of cuBLAS" is a variant's median
// against the cublas variant's at the same side.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/elementwise_case.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/variant_table.h"
#include "kernels/matmul/matmul_cublas.h"
#include "kernels/matmul/matmul_kernels.h"
#include "kernels/matmul/matmul_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kNaive, kTiled, kCublas };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"naive", Variant::kNaive},
      {"shared_tiled", Variant::kTiled},
      {"cublas", Variant::kCublas},
  });
  return table;
}

// Entries of C compared with the CPU reference (plus the corners).
constexpr int kSampledEntries = 2048;

// The kernel's launch (cuBLAS: its own kernels, no occupancy of ours).
LaunchShape MatmulShape(Variant v, int side, int tile) {
  LaunchShape shape;
  const int block = v == Variant::kNaive ? kNaiveMatmulBlock : tile;
  if (v == Variant::kCublas) return shape;
  shape.function = v == Variant::kNaive ? NaiveMatmulKernel() : TiledMatmulKernel(tile);
  shape.block = dim3(block, block);
  shape.grid = dim3(side / block, side / block);
  return shape;
}

class MatmulFamily : public Family {
 public:
  std::string_view name() const override { return "matmul"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Variant variant, LookupVariant(point, Variants()));
    const std::string key = point.Canonical();
    ASSIGN_OR_RETURN(const int64_t side64, AxisValue(point, "side"));
    if (side64 % 32 != 0 || side64 > (1 << 18)) {
      return InvalidArgumentError(key + ": side must be a multiple of 32 up to 2^18");
    }
    const int side = static_cast<int>(side64);
    int tile = 16;
    if (variant == Variant::kTiled) {
      ASSIGN_OR_RETURN(const int64_t tile64, AxisValue(point, "tile"));
      if (TiledMatmulKernel(static_cast<int>(tile64)) == nullptr) {
        return InvalidArgumentError(key + ": tile must be 8, 16 or 32");
      }
      tile = static_cast<int>(tile64);
      RETURN_IF_ERROR(CheckBlock(dim3(tile, tile), prop));
    }
    const double sq = static_cast<double>(side) * side;
    RETURN_IF_ERROR(CheckDeviceMemory(3.0 * sizeof(float) * sq, prop));
    ElementwiseSpec<float, float> s;
    s.key = key;
    s.in_name = "A/B";  // input 0 is A, input 1 is B
    s.inputs = 2;
    s.in_count = s.out_count = static_cast<size_t>(side) * side;
    s.fill_input = [](int k, float* d, size_t count, cudaStream_t stream) {
      return FillMatmulInput(d, static_cast<int64_t>(count), k == 0 ? kMatmulSeedA : kMatmulSeedB,
                             stream);
    };
    // The cuBLAS handle, created in Setup and shared by prepare and launch.
    auto cublas = std::make_shared<std::unique_ptr<CublasSgemm>>();
    if (variant == Variant::kCublas) {
      s.prepare = [cublas](LaunchShape*) -> Status {
        ASSIGN_OR_RETURN(*cublas, CublasSgemm::Create());
        return OkStatus();
      };
    }
    s.launch = [variant, side, tile, cublas](const ElementwiseArgs<float, float>& a,
                                             cudaStream_t stream) -> Status {
      switch (variant) {
        case Variant::kNaive:
          return LaunchNaiveMatmul(a.d_in[0], a.d_in[1], a.d_out, side, stream);
        case Variant::kTiled:
          return LaunchTiledMatmul(tile, a.d_in[0], a.d_in[1], a.d_out, side, stream);
        case Variant::kCublas:
          return (*cublas)->Multiply(a.d_in[0], a.d_in[1], a.d_out, side, stream);
      }
      return InternalError("unreachable");
    };
    s.clear_output_each_run = true;  // so a variant that writes nothing fails Verify
    s.sample = [side] {
      std::vector<int64_t> picked;
      for (const auto& [row, col] : MatmulSampledEntries(side, kSampledEntries)) {
        picked.push_back(static_cast<int64_t>(row) * side + col);
      }
      return picked;
    };
    s.reference_at = [side](const std::vector<int64_t>& picked) {
      std::vector<float> expected;
      expected.reserve(picked.size());
      for (int64_t i : picked) {
        expected.push_back(MatmulReferenceEntry(side, static_cast<int>(i / side),
                                                static_cast<int>(i % side)));
      }
      return expected;
    };
    s.shape = MatmulShape(variant, side, tile);
    s.work.bytes = 3.0 * sizeof(float) * sq;
    s.work.flops = 2.0 * sq * side;
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(MatmulFamily);

}  // namespace
}  // namespace warpwatch::kernels
