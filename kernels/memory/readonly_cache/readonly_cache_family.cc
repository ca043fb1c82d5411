// memory.readonly_cache: variants, axes and launch on the elementwise template; the gather's index
// buffer is allocated between input and output (allocate_more), filled with the texture object
// made once the input is filled (finish_setup). The kernels are in readonly_cache_kernels.cu.
#include <memory>
#include <string>
#include <utility>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/elementwise_case.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/memory/readonly_cache/readonly_cache_kernels.h"
#include "kernels/memory/readonly_cache/readonly_cache_reference.h"

namespace warpwatch::kernels {
namespace {

constexpr uint64_t kIndexSeed = kSeed + 1;
constexpr int64_t kTextureMaxElements = int64_t{1} << 27;

const VariantTable<ReadonlyPath>& Variants() {
  static const auto& table = NewVariantTable<ReadonlyPath>({
      {"plain", ReadonlyPath::kPlain},
      {"ldg", ReadonlyPath::kLdg},
      {"texture", ReadonlyPath::kTexture},
  });
  return table;
}

// What the gather reads beside the input: its indices and, for `texture`, the texture object.
struct GatherState {
  ~GatherState() {
    if (texture != 0) CUDA_CHECK_NOEXCEPT(cudaDestroyTextureObject(texture));
  }
  DeviceBuffer<int> d_idx;
  cudaTextureObject_t texture = 0;
};

class ReadonlyCacheFamily : public Family {
 public:
  std::string_view name() const override { return "memory.readonly_cache"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<ReadonlyPath> p, ReadPoint1D(point, Variants()));
    if (p.n > int64_t{1} << 30) return InvalidArgumentError(p.key + ": n must be <= 2^30");
    // The guide's 1D linear texture width limit is 2^27 elements up to compute capability 8.x
    // (CUDA 13's cudaDeviceProp no longer carries it); nothing larger is attempted.
    if (p.variant == ReadonlyPath::kTexture && p.n > kTextureMaxElements) {
      return FailedPreconditionError(p.key + ": " + std::to_string(p.n) +
                                     " floats exceed the 1D linear texture limit of 2^27");
    }
    RETURN_IF_ERROR(CheckDeviceMemory(12.0 * static_cast<double>(p.n), prop));
    ASSIGN_OR_RETURN(const Launch1D launch, ReadLaunch1D(point, p.n, 1, prop));
    const ReadonlyPath path = p.variant;
    const int64_t n = p.n;
    const std::string key = p.key;
    auto state = std::make_shared<GatherState>();
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_count = s.out_count = static_cast<size_t>(n);
    // The indices between the input and the output, as the family has always allocated them.
    s.allocate_more = [state, n, key] {
      return state->d_idx.Allocate(static_cast<size_t>(n), key + " indices");
    };
    s.finish_setup = [state, path, n](const ElementwiseArgs<float, float>& a,
                                      cudaStream_t stream) -> Status {
      RETURN_IF_ERROR(FillReadonlyIndices(state->d_idx.get(), n, kIndexSeed, stream));
      if (path == ReadonlyPath::kTexture) {
        ASSIGN_OR_RETURN(state->texture, MakeReadonlyTexture(a.d_in[0], n));
      }
      return OkStatus();
    };
    s.launch = [state, path, n, launch](const ElementwiseArgs<float, float>& a,
                                        cudaStream_t stream) {
      return LaunchReadonlyGather(path, a.d_in[0], state->texture, state->d_idx.get(), a.d_out, n,
                                  launch.grid, launch.block, stream);
    };
    s.reference = [n] { return ReadonlyCacheReference(n, kSeed, kIndexSeed); };
    s.shape = launch.ShapeOf(ReadonlyGatherKernel(path));
    // Per output: its index, the float gathered and the float written.
    s.work.bytes = (2.0 * sizeof(float) + sizeof(int)) * static_cast<double>(n);
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(ReadonlyCacheFamily);

}  // namespace
}  // namespace warpwatch::kernels
