// reduce: the Family/Case classes (axes, launch configuration, the device-side final pass,
// input restore, verification). Every variant leaves the complete sum in one device int, as
// cub::DeviceReduce::Sum does: the book's kernels produce one sum per block, and a second launch
// (the shuffle reduction) adds those on the device inside the timed region.
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
#include "kernels/reduce/reduce_kernels.h"
#include "kernels/reduce/reduce_reference.h"

namespace warpwatch::kernels {
namespace {

enum class Method { kBook, kShuffle, kCub };

struct ReduceVariant {
  Method method;
  BookReduction book;  // for kBook
};

const std::vector<std::pair<std::string_view, ReduceVariant>>& Variants() {
  using B = BookReduction;
  static const auto* table = new std::vector<std::pair<std::string_view, ReduceVariant>>{
      {"neighbored", {Method::kBook, B::kNeighbored}},
      {"neighbored_less", {Method::kBook, B::kNeighboredLess}},
      {"interleaved", {Method::kBook, B::kInterleaved}},
      {"unrolling2", {Method::kBook, B::kUnrolling2}},
      {"unrolling4", {Method::kBook, B::kUnrolling4}},
      {"unrolling8", {Method::kBook, B::kUnrolling8}},
      {"unroll_warps8", {Method::kBook, B::kUnrollWarps8}},
      {"complete_unroll_warps8",
       {Method::kBook, B::kCompleteUnrollWarps8}},
      {"complete_unroll", {Method::kBook, B::kCompleteUnroll}},
      {"warp_shuffle", {Method::kShuffle, B::kNeighbored}},
      {"cub", {Method::kCub, B::kNeighbored}},
  };
  return *table;
}

// Block size of the final pass over the book kernels' block sums.
constexpr unsigned kFinalPassBlock = 256;

struct Config {
  std::string key;
  ReduceVariant variant{Method::kCub, BookReduction::kNeighbored};
  int64_t n = 0;
  int max_value = 1;
  unsigned block = 256;
  unsigned grid = 1;  // book: ceil(n / (block * unroll)); shuffle: set in Setup
  int sm_count = 1;
};

class ReduceCase : public Case {
 public:
  explicit ReduceCase(Config config) : c_(std::move(config)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_data_.Allocate(static_cast<size_t>(c_.n), c_.key + " input"));
    RETURN_IF_ERROR(d_result_.Allocate(1, c_.key + " result"));
    RETURN_IF_ERROR(d_done_.Allocate(1, c_.key + " ticket"));
    switch (c_.variant.method) {
      case Method::kBook: {
        RETURN_IF_ERROR(d_block_sums_.Allocate(c_.grid, c_.key + " block sums"));
        ASSIGN_OR_RETURN(int per_sm, ShuffleReductionBlocksPerSm(kFinalPassBlock));
        final_grid_ = GridStrideBlocks(c_.grid, kFinalPassBlock * kShuffleIntsPerStep, per_sm,
                                       c_.sm_count);
        RETURN_IF_ERROR(d_final_sums_.Allocate(final_grid_, c_.key + " final-pass sums"));
        break;
      }
      case Method::kShuffle: {
        ASSIGN_OR_RETURN(int per_sm, ShuffleReductionBlocksPerSm(c_.block));
        c_.grid = GridStrideBlocks(c_.n, int64_t{c_.block} * kShuffleIntsPerStep, per_sm,
                                   c_.sm_count);
        RETURN_IF_ERROR(d_block_sums_.Allocate(c_.grid, c_.key + " block sums"));
        break;
      }
      case Method::kCub: {
        ASSIGN_OR_RETURN(temp_bytes_, CubSumTempBytes(c_.n));
        RETURN_IF_ERROR(d_temp_.Allocate(temp_bytes_, c_.key + " CUB temporary storage"));
        break;
      }
    }
    RETURN_IF_ERROR(FillSeededInts(d_data_.get(), d_data_.size(), kSeed, c_.max_value, stream));
    RETURN_IF_ERROR(ClearResult(stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    switch (c_.variant.method) {
      case Method::kBook:
        RETURN_IF_ERROR(LaunchBookReduction(c_.variant.book, d_data_.get(), c_.n,
                                            d_block_sums_.get(), c_.grid, c_.block, stream));
        return LaunchShuffleReduction(d_block_sums_.get(), c_.grid, d_final_sums_.get(),
                                      d_done_.get(), d_result_.get(), final_grid_,
                                      kFinalPassBlock, stream);
      case Method::kShuffle:
        return LaunchShuffleReduction(d_data_.get(), c_.n, d_block_sums_.get(), d_done_.get(),
                                      d_result_.get(), c_.grid, c_.block, stream);
      case Method::kCub:
        return LaunchCubSum(d_temp_.get(), temp_bytes_, d_data_.get(), d_result_.get(), c_.n,
                            stream);
    }
    return InternalError("unreachable");
  }

  // The book's kernels reduce in place: restore the input. Every variant gets a cleared result
  // (so a Run that writes nothing fails Verify) and a zero ticket counter.
  Status Reset(cudaStream_t stream) override {
    if (c_.variant.method == Method::kBook) {
      RETURN_IF_ERROR(FillSeededInts(d_data_.get(), d_data_.size(), kSeed, c_.max_value, stream));
    }
    return ClearResult(stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    VerifyResult result;
    const cudaError_t err = cudaStreamSynchronize(stream);
    if (err != cudaSuccess) {
      result.status = CudaError(err, "cudaStreamSynchronize(stream)", __FILE__, __LINE__);
      return result;
    }
    StatusOr<std::vector<int>> got = d_result_.CopyToHost();
    if (!got.ok()) {
      result.status = got.status().Annotate(c_.key);
      return result;
    }
    const int64_t expected = ReduceReference(c_.n, kSeed, c_.max_value);
    const int64_t actual = (*got)[0];
    if (actual != expected) {
      result.max_error = static_cast<double>(actual > expected ? actual - expected
                                                               : expected - actual);
      result.status = InternalError(c_.key + ": sum of " + std::to_string(c_.n) +
                                    " ints: expected " + std::to_string(expected) + ", got " +
                                    std::to_string(actual));
    }
    return result;
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    if (c_.variant.method == Method::kCub) return shape;
    shape.function = c_.variant.method == Method::kBook
                         ? BookReductionKernel(c_.variant.book, c_.block)
                         : ShuffleReductionKernel();
    shape.grid = dim3(c_.grid);
    shape.block = dim3(c_.block);
    return shape;
  }

  // 4n bytes read, plus the block sums written and read back by the final pass.
  Work work() const override {
    Work w;
    double partial_ints = 0;
    if (c_.variant.method == Method::kBook) partial_ints = 2.0 * c_.grid + 2.0 * final_grid_;
    if (c_.variant.method == Method::kShuffle) partial_ints = 2.0 * c_.grid;
    w.bytes = sizeof(int) * (static_cast<double>(c_.n) + partial_ints + 1);
    w.flops = static_cast<double>(c_.n);
    return w;
  }

 private:
  Status ClearResult(cudaStream_t stream) {
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_result_.get(), 0, d_result_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_done_.get(), 0, d_done_.bytes(), stream));
    return OkStatus();
  }

  Config c_;
  unsigned final_grid_ = 0;
  size_t temp_bytes_ = 0;
  DeviceBuffer<int> d_data_;
  DeviceBuffer<int> d_block_sums_;
  DeviceBuffer<int> d_final_sums_;
  DeviceBuffer<unsigned> d_done_;
  DeviceBuffer<int> d_result_;
  DeviceBuffer<uint8_t> d_temp_;
};

class ReduceFamily : public Family {
 public:
  std::string_view name() const override { return "reduce"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    Config c;
    ASSIGN_OR_RETURN(c.variant, LookupVariant(point, Variants()));
    c.key = point.Canonical();
    c.sm_count = prop.multiProcessorCount;
    ASSIGN_OR_RETURN(c.n, AxisValue(point, "n"));
    c.max_value = ReduceMaxValue(c.n);
    if (c.max_value < 1) {
      return FailedPreconditionError("n " + std::to_string(c.n) +
                                     " ints cannot have a sum that fits in an int");
    }
    RETURN_IF_ERROR(CheckDeviceMemory(sizeof(int) * 1.01 * static_cast<double>(c.n), prop));
    if (c.variant.method == Method::kCub) {
      return std::unique_ptr<Case>(std::make_unique<ReduceCase>(std::move(c)));
    }
    ASSIGN_OR_RETURN(int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    if (block < 32 || (block & (block - 1)) != 0) {
      return InvalidArgumentError(c.key + ": reduce needs a power-of-two block_size >= 32");
    }
    c.block = static_cast<unsigned>(block);
    if (c.variant.method == Method::kBook) {
      ASSIGN_OR_RETURN(c.grid, GridFor(c.n, block * BookReductionUnroll(c.variant.book), prop));
    }
    return std::unique_ptr<Case>(std::make_unique<ReduceCase>(std::move(c)));
  }
};

WARPWATCH_REGISTER_FAMILY(ReduceFamily);

}  // namespace
}  // namespace warpwatch::kernels
