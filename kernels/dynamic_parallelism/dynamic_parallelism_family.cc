// dynamic_parallelism (notes 001): the Family/Case classes. The timed region is the reduction
// (one host launch; the nested variants' child grids are launched by the device inside it) and
// the final one-block sum of the per-block results, so every variant ends with the whole sum in
// one device int. The input is reduced in place: Reset restores it outside the timed region.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/variant_table.h"
#include "kernels/core/verify.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"
#include "kernels/dynamic_parallelism/dynamic_parallelism_kernels.h"
#include "kernels/dynamic_parallelism/dynamic_parallelism_reference.h"

namespace warpwatch::kernels {
namespace {

const VariantTable<NestedReduction>& Variants() {
  static const auto& table = NewVariantTable<NestedReduction>({
      {"flat", NestedReduction::kFlat},
      {"nested", NestedReduction::kNested},
      {"nested_nosync", NestedReduction::kNestedNoSync},
      {"nested_2", NestedReduction::kNested2},
  });
  return table;
}

struct Config {
  std::string key;
  NestedReduction kind = NestedReduction::kFlat;
  int64_t n = 0;
  unsigned block = 512;
  unsigned grid = 1;  // ceil(n / block); the input is padded with zeros to grid * block
};

class DynamicParallelismCase : public Case {
 public:
  explicit DynamicParallelismCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    const size_t padded = static_cast<size_t>(c_.grid) * c_.block;
    RETURN_IF_ERROR(d_data_.Allocate(padded, c_.key + " input"));
    RETURN_IF_ERROR(d_block_sums_.Allocate(c_.grid, c_.key + " block sums"));
    RETURN_IF_ERROR(d_result_.Allocate(1, c_.key + " result"));
    RETURN_IF_ERROR(d_launch_error_.Allocate(1, c_.key + " device launch error"));
    // The device runtime's pool of pending launches is process-wide; raised, never lowered.
    const int64_t pending = NestedPendingLaunches(c_.kind, c_.grid, c_.block);
    size_t limit = 0;
    CUDA_RETURN_IF_ERROR(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount));
    if (static_cast<int64_t>(limit) < pending) {
      CUDA_RETURN_IF_ERROR(
          cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, static_cast<size_t>(pending)));
    }
    RETURN_IF_ERROR(Reset(stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  // The reduction works in place: refill the input (zeros past n), clear the outputs.
  Status Reset(cudaStream_t stream) override {
    const size_t n = static_cast<size_t>(c_.n);
    RETURN_IF_ERROR(FillSeededInts(d_data_.get(), n, kSeed, kNestedMaxValue, stream));
    if (d_data_.size() > n) {
      CUDA_RETURN_IF_ERROR(
          cudaMemsetAsync(d_data_.get() + n, 0, (d_data_.size() - n) * sizeof(int), stream));
    }
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_block_sums_.get(), 0, d_block_sums_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_result_.get(), 0, d_result_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(
        cudaMemsetAsync(d_launch_error_.get(), 0, d_launch_error_.bytes(), stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    RETURN_IF_ERROR(LaunchNestedReduction(c_.kind, d_data_.get(), d_block_sums_.get(),
                                          d_launch_error_.get(), c_.grid, c_.block, stream));
    return LaunchFinalSum(d_block_sums_.get(), c_.grid, d_result_.get(), stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    VerifyResult result;
    StatusOr<std::vector<int>> got = DownloadAfter(d_result_, 1, c_.key, stream);
    if (!got.ok()) {
      result.status = got.status();
      return result;
    }
    StatusOr<std::vector<int>> launch_error = d_launch_error_.CopyToHost();
    if (!launch_error.ok()) {
      result.status = launch_error.status().Annotate(c_.key);
      return result;
    }
    if ((*launch_error)[0] != 0) {
      const auto code = static_cast<cudaError_t>((*launch_error)[0]);
      result.status =
          InternalError(c_.key + ": a device-side launch failed: " + cudaGetErrorName(code) + ": " +
                        cudaGetErrorString(code));
      return result;
    }
    const int64_t expected = NestedReductionReference(c_.n, kSeed);
    const int64_t actual = (*got)[0];
    if (actual != expected) {
      result.max_error =
          static_cast<double>(actual > expected ? actual - expected : expected - actual);
      result.status =
          InternalError(c_.key + ": sum of " + std::to_string(c_.n) + " ints: expected " +
                        std::to_string(expected) + ", got " + std::to_string(actual));
    }
    return result;
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = NestedReductionKernel(c_.kind);
    shape.grid = dim3(c_.grid);
    shape.block = dim3(NestedReductionBlock(c_.kind, c_.block));
    return shape;
  }

  // n ints read (the in-place partial sums are the algorithm's own traffic), n additions.
  Work work() const override {
    Work w;
    w.bytes = sizeof(int) * static_cast<double>(c_.n);
    w.flops = static_cast<double>(c_.n);
    return w;
  }

 private:
  Config c_;
  DeviceBuffer<int> d_data_;
  DeviceBuffer<int> d_block_sums_;
  DeviceBuffer<int> d_result_;
  DeviceBuffer<int> d_launch_error_;
};

class DynamicParallelismFamily : public Family {
 public:
  std::string_view name() const override { return "dynamic_parallelism"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.kind, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    if (c.n > (int64_t{1} << 24)) {
      return InvalidArgumentError(c.key + ": n above 2^24 (the int sum could overflow)");
    }
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size", 2));
    if ((block & (block - 1)) != 0) {
      return InvalidArgumentError(c.key + ": block_size must be a power of two");
    }
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    c.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block, prop));
    RETURN_IF_ERROR(CheckDeviceMemory(sizeof(int) * static_cast<double>(c.grid) * block, prop));
    return std::unique_ptr<Case>(std::make_unique<DynamicParallelismCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(DynamicParallelismFamily);

}  // namespace
}  // namespace warpwatch::kernels
