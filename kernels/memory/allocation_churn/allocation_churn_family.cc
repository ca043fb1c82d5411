// memory.allocation_churn: variants, axes and launch on the elementwise template. The timed
// region is not one kernel: each Run() is the scratch buffer's allocation (per variant), the
// producer and consumer kernels (allocation_churn_kernels.h) and the scratch buffer's release:
//   malloc_free        cudaMalloc + 2 kernels + cudaFree (cudaFree waits for the device, so the
//                      case is host-synchronous: its samples include the host's API time)
//   malloc_async_pool  cudaMallocFromPoolAsync + 2 kernels + cudaFreeAsync on the stream, from a
//                      pool of the case's own that keeps its memory (release threshold: max) and
//                      is warmed by one allocation in Setup
//   preallocated       the 2 kernels on a scratch buffer allocated in Setup
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/elementwise_case.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/memory/allocation_churn/allocation_churn_kernels.h"
#include "kernels/memory/allocation_churn/allocation_churn_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kMallocFree, kAsyncPool, kPreallocated };

const VariantTable<Variant>& Variants() {
  static const auto& table = NewVariantTable<Variant>({
      {"malloc_free", Variant::kMallocFree},
      {"malloc_async_pool", Variant::kAsyncPool},
      {"preallocated", Variant::kPreallocated},
  });
  return table;
}

// The scratch side of a case: the preallocated buffer or the pool, made in Setup.
struct Scratch {
  ~Scratch() {
    if (pool != nullptr) CUDA_CHECK_NOEXCEPT(cudaMemPoolDestroy(pool));
  }
  DeviceBuffer<float> d_preallocated;
  cudaMemPool_t pool = nullptr;
};

// A pool of the case's own that keeps its memory, warmed by one allocation of `bytes`.
Status CreateWarmPool(size_t bytes, cudaMemPool_t* pool, cudaStream_t stream) {
  int device = 0;
  CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  CUDA_RETURN_IF_ERROR(cudaMemPoolCreate(pool, &props));
  uint64_t keep_everything = std::numeric_limits<uint64_t>::max();
  CUDA_RETURN_IF_ERROR(
      cudaMemPoolSetAttribute(*pool, cudaMemPoolAttrReleaseThreshold, &keep_everything));
  void* warm = nullptr;
  CUDA_RETURN_IF_ERROR(cudaMallocFromPoolAsync(&warm, bytes, *pool, stream));
  CUDA_RETURN_IF_ERROR(cudaFreeAsync(warm, stream));
  return OkStatus();
}

// The timed region: the scratch's allocation, the two kernels, its release.
Status ChurnAndLaunch(Variant v, Scratch& scratch, const ElementwiseArgs<float, float>& a,
                      int64_t n, Launch1D launch, cudaStream_t stream) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  auto kernels = [&](float* d_scratch) {
    return LaunchScratchProduceConsume(a.d_in[0], d_scratch, a.d_out, n, launch.grid,
                                       launch.block, stream);
  };
  void* p = nullptr;
  switch (v) {
    case Variant::kPreallocated:
      return kernels(scratch.d_preallocated.get());
    case Variant::kMallocFree: {
      CUDA_RETURN_IF_ERROR(cudaMalloc(&p, bytes));
      const Status launched = kernels(static_cast<float*>(p));
      CUDA_RETURN_IF_ERROR(cudaFree(p));
      return launched;
    }
    case Variant::kAsyncPool: {
      CUDA_RETURN_IF_ERROR(cudaMallocFromPoolAsync(&p, bytes, scratch.pool, stream));
      const Status launched = kernels(static_cast<float*>(p));
      CUDA_RETURN_IF_ERROR(cudaFreeAsync(p, stream));
      return launched;
    }
  }
  return InternalError("unreachable");
}

class AllocationChurnFamily : public Family {
 public:
  std::string_view name() const override { return "memory.allocation_churn"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<Variant> p, ReadPoint1D(point, Variants()));
    RETURN_IF_ERROR(CheckDeviceMemory(3.0 * sizeof(float) * static_cast<double>(p.n), prop));
    ASSIGN_OR_RETURN(const Launch1D launch, ReadLaunch1D(point, p.n, 1, prop));
    const Variant v = p.variant;
    const int64_t n = p.n;
    const std::string key = p.key;
    auto scratch = std::make_shared<Scratch>();
    ElementwiseSpec<float, float> s;
    s.key = p.key;
    s.in_count = s.out_count = static_cast<size_t>(n);
    s.finish_setup = [v, n, key, scratch](const ElementwiseArgs<float, float>&,
                                          cudaStream_t stream) -> Status {
      if (v == Variant::kPreallocated) {
        return scratch->d_preallocated.Allocate(static_cast<size_t>(n), key + " scratch");
      }
      if (v == Variant::kAsyncPool) {
        return CreateWarmPool(static_cast<size_t>(n) * sizeof(float), &scratch->pool, stream);
      }
      return OkStatus();
    };
    s.launch = [v, n, launch, scratch](const ElementwiseArgs<float, float>& a,
                                       cudaStream_t stream) {
      return ChurnAndLaunch(v, *scratch, a, n, launch, stream);
    };
    s.reference = [n] { return AllocationChurnReference(n, kSeed); };
    // cudaMalloc/cudaFree wait for the host (cudaFree synchronises the device).
    s.host_synchronous = v == Variant::kMallocFree;
    s.shape = launch.ShapeOf(ScratchProduceKernel());
    // The two kernels' traffic: read in, write scratch; read scratch and in, write out.
    s.work.bytes = 5.0 * sizeof(float) * static_cast<double>(n);
    s.work.flops = 2.0 * static_cast<double>(n);
    return MakeElementwiseCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(AllocationChurnFamily);

}  // namespace
}  // namespace warpwatch::kernels
