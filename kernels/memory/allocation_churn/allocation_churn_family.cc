// memory.allocation_churn: the Family/Case classes. The timed region is not one kernel: each
// Run() is the scratch buffer's allocation (per variant), the producer and consumer kernels
// (allocation_churn_kernels.h) and the scratch buffer's release:
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
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"
#include "kernels/core/verify.h"
#include "kernels/memory/allocation_churn/allocation_churn_kernels.h"
#include "kernels/memory/allocation_churn/allocation_churn_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Variant { kMallocFree, kAsyncPool, kPreallocated };

const std::vector<std::pair<std::string_view, Variant>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, Variant>>{
      {"malloc_free", Variant::kMallocFree},
      {"malloc_async_pool", Variant::kAsyncPool},
      {"preallocated", Variant::kPreallocated},
  };
  return *table;
}

struct Config {
  std::string key;
  Variant variant = Variant::kPreallocated;
  int64_t n = 0;
  unsigned block = 256;
  unsigned grid = 1;
};

class AllocationChurnCase : public Case {
 public:
  explicit AllocationChurnCase(Config config) : c_(std::move(config)) {}
  ~AllocationChurnCase() override {
    if (pool_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaMemPoolDestroy(pool_));
  }
  AllocationChurnCase(const AllocationChurnCase&) = delete;
  AllocationChurnCase& operator=(const AllocationChurnCase&) = delete;

  Status Setup(cudaStream_t stream) override {
    const size_t n = static_cast<size_t>(c_.n);
    RETURN_IF_ERROR(d_in_.Allocate(n, c_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(n, c_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), n, kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    if (c_.variant == Variant::kPreallocated) {
      RETURN_IF_ERROR(d_scratch_.Allocate(n, c_.key + " scratch"));
    } else if (c_.variant == Variant::kAsyncPool) {
      RETURN_IF_ERROR(CreatePool());
      void* warm = nullptr;
      CUDA_RETURN_IF_ERROR(cudaMallocFromPoolAsync(&warm, ScratchBytes(), pool_, stream));
      CUDA_RETURN_IF_ERROR(cudaFreeAsync(warm, stream));
    }
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    switch (c_.variant) {
      case Variant::kPreallocated:
        return Launch(d_scratch_.get(), stream);
      case Variant::kMallocFree: {
        void* scratch = nullptr;
        CUDA_RETURN_IF_ERROR(cudaMalloc(&scratch, ScratchBytes()));
        const Status launched = Launch(static_cast<float*>(scratch), stream);
        CUDA_RETURN_IF_ERROR(cudaFree(scratch));
        return launched;
      }
      case Variant::kAsyncPool: {
        void* scratch = nullptr;
        CUDA_RETURN_IF_ERROR(cudaMallocFromPoolAsync(&scratch, ScratchBytes(), pool_, stream));
        const Status launched = Launch(static_cast<float*>(scratch), stream);
        CUDA_RETURN_IF_ERROR(cudaFreeAsync(scratch, stream));
        return launched;
      }
    }
    return InternalError("unreachable");
  }

  VerifyResult Verify(cudaStream_t stream) override {
    return VerifyDeviceOutput(d_out_, AllocationChurnReference(c_.n, kSeed), c_.key, stream);
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = ScratchProduceKernel();
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  // The two kernels' traffic: read in, write scratch; read scratch and in, write out.
  Work work() const override {
    const double n = static_cast<double>(c_.n);
    Work w;
    w.bytes = 5.0 * sizeof(float) * n;
    w.flops = 2.0 * n;
    return w;
  }

  // cudaMalloc/cudaFree wait for the host (cudaFree synchronises the device).
  bool host_synchronous() const override { return c_.variant == Variant::kMallocFree; }

 private:
  size_t ScratchBytes() const { return static_cast<size_t>(c_.n) * sizeof(float); }

  Status Launch(float* d_scratch, cudaStream_t stream) {
    return LaunchScratchProduceConsume(d_in_.get(), d_scratch, d_out_.get(), c_.n, c_.grid,
                                       c_.block, stream);
  }

  Status CreatePool() {
    int device = 0;
    CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    CUDA_RETURN_IF_ERROR(cudaMemPoolCreate(&pool_, &props));
    uint64_t keep_everything = std::numeric_limits<uint64_t>::max();
    CUDA_RETURN_IF_ERROR(
        cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &keep_everything));
    return OkStatus();
  }

  Config c_;
  DeviceBuffer<float> d_in_;
  DeviceBuffer<float> d_out_;
  DeviceBuffer<float> d_scratch_;  // preallocated only
  cudaMemPool_t pool_ = nullptr;   // malloc_async_pool only
};

class AllocationChurnFamily : public Family {
 public:
  std::string_view name() const override { return "memory.allocation_churn"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.variant, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    RETURN_IF_ERROR(CheckDeviceMemory(3.0 * sizeof(float) * static_cast<double>(c.n), prop));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block, prop));
    return std::unique_ptr<Case>(std::make_unique<AllocationChurnCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(AllocationChurnFamily);

}  // namespace
}  // namespace warpwatch::kernels
