// reduce: variants, axes and passes on the reduction template. Every variant leaves the complete
// sum in one device int, as cub::DeviceReduce::Sum does: the book's kernels produce one sum per
// block (in place, so the input is restored before every run), and a second launch (the shuffle
// reduction) adds those on the device inside the timed region.
#include <memory>
#include <string>
#include <utility>

#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_1d.h"
#include "kernels/core/reduction_case.h"
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

const VariantTable<ReduceVariant>& Variants() {
  using B = BookReduction;
  static const auto& table = NewVariantTable<ReduceVariant>({
      {"neighbored", {Method::kBook, B::kNeighbored}},
      {"neighbored_less", {Method::kBook, B::kNeighboredLess}},
      {"interleaved", {Method::kBook, B::kInterleaved}},
      {"unrolling2", {Method::kBook, B::kUnrolling2}},
      {"unrolling4", {Method::kBook, B::kUnrolling4}},
      {"unrolling8", {Method::kBook, B::kUnrolling8}},
      {"unroll_warps8", {Method::kBook, B::kUnrollWarps8}},
      {"complete_unroll_warps8", {Method::kBook, B::kCompleteUnrollWarps8}},
      {"complete_unroll", {Method::kBook, B::kCompleteUnroll}},
      {"warp_shuffle", {Method::kShuffle, B::kNeighbored}},
      {"cub", {Method::kCub, B::kNeighbored}},
  });
  return table;
}

// Block size of the final pass over the book kernels' block sums.
constexpr unsigned kFinalPassBlock = 256;

// Scratch order: the ticket counter, then the method's own buffers.
constexpr size_t kDone = 0, kBlockSums = 1, kFinalSums = 2, kCubTemp = 1;

ScratchBuffer Ints(std::string name, unsigned count) {
  return {std::move(name), count * sizeof(int), false};
}

// 4n bytes read, plus the block sums written and read back by the passes that follow.
Work ReduceWork(int64_t n, double partial_ints) {
  Work w;
  w.bytes = sizeof(int) * (static_cast<double>(n) + partial_ints + 1);
  w.flops = static_cast<double>(n);
  return w;
}

// The plan each method's Setup settles: the first pass's grid is fixed for the book kernels and
// chosen from the occupancy API for the shuffle reduction (and the book's final pass).
Status ChoosePlan(ReduceVariant v, int64_t n, int sm_count, ReductionPlan* plan) {
  plan->scratch = {{"ticket", sizeof(unsigned), /*clear_each_run=*/true}};
  LaunchShape& first = plan->launches[0];
  switch (v.method) {
    case Method::kBook: {
      ASSIGN_OR_RETURN(int per_sm, ShuffleReductionBlocksPerSm(kFinalPassBlock));
      const unsigned grid = first.grid.x;
      const unsigned final_grid =
          GridStrideBlocks(grid, kFinalPassBlock * kShuffleIntsPerStep, per_sm, sm_count);
      plan->scratch.push_back(Ints("block sums", grid));
      plan->scratch.push_back(Ints("final-pass sums", final_grid));
      LaunchShape final_pass;
      final_pass.function = ShuffleReductionKernel();
      final_pass.grid = dim3(final_grid);
      final_pass.block = dim3(kFinalPassBlock);
      plan->launches.push_back(final_pass);
      plan->work = ReduceWork(n, 2.0 * grid + 2.0 * final_grid);
      return OkStatus();
    }
    case Method::kShuffle: {
      ASSIGN_OR_RETURN(int per_sm, ShuffleReductionBlocksPerSm(first.block.x));
      const unsigned grid = GridStrideBlocks(n, int64_t{first.block.x} * kShuffleIntsPerStep,
                                             per_sm, sm_count);
      first.grid = dim3(grid);
      plan->scratch.push_back(Ints("block sums", grid));
      plan->work = ReduceWork(n, 2.0 * grid);
      return OkStatus();
    }
    case Method::kCub: {
      ASSIGN_OR_RETURN(const size_t temp_bytes, CubSumTempBytes(n));
      plan->scratch.push_back({"CUB temporary storage", temp_bytes, false});
      plan->work = ReduceWork(n, 0);
      return OkStatus();
    }
  }
  return InternalError("unreachable");
}

Status RunReduction(ReduceVariant v, const ReductionArgs<int, int>& a, cudaStream_t stream) {
  auto* d_done = static_cast<unsigned*>(a.d_scratch[kDone]);
  const LaunchShape& first = a.plan.launches[0];
  switch (v.method) {
    case Method::kBook: {
      auto* d_block_sums = static_cast<int*>(a.d_scratch[kBlockSums]);
      const LaunchShape& final_pass = a.plan.launches[1];
      RETURN_IF_ERROR(LaunchBookReduction(v.book, a.d_in, a.n, d_block_sums, first.grid.x,
                                          first.block.x, stream));
      return LaunchShuffleReduction(d_block_sums, first.grid.x,
                                    static_cast<int*>(a.d_scratch[kFinalSums]), d_done,
                                    a.d_result, final_pass.grid.x, final_pass.block.x, stream);
    }
    case Method::kShuffle:
      return LaunchShuffleReduction(a.d_in, a.n, static_cast<int*>(a.d_scratch[kBlockSums]),
                                    d_done, a.d_result, first.grid.x, first.block.x, stream);
    case Method::kCub:
      return LaunchCubSum(a.d_scratch[kCubTemp], a.plan.scratch[kCubTemp].bytes, a.d_in,
                          a.d_result, a.n, stream);
  }
  return InternalError("unreachable");
}

class ReduceFamily : public Family {
 public:
  std::string_view name() const override { return "reduce"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const Point1D<ReduceVariant> p, ReadPoint1D(point, Variants()));
    const ReduceVariant v = p.variant;
    const int64_t n = p.n;
    const int max_value = ReduceMaxValue(n);
    if (max_value < 1) {
      return FailedPreconditionError("n " + std::to_string(n) +
                                     " ints cannot have a sum that fits in an int");
    }
    RETURN_IF_ERROR(CheckDeviceMemory(sizeof(int) * 1.01 * static_cast<double>(n), prop));
    ReductionSpec<int, int> s;
    s.key = p.key;
    s.n = n;
    s.result_name = "sum of " + std::to_string(n) + " ints";
    if (v.method != Method::kCub) {
      ASSIGN_OR_RETURN(int64_t block, AxisValue(point, "block_size"));
      RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
      if (block < 32 || (block & (block - 1)) != 0) {
        return InvalidArgumentError(p.key + ": reduce needs a power-of-two block_size >= 32");
      }
      LaunchShape& first = s.plan.launches[0];
      first.block = dim3(static_cast<unsigned>(block));
      if (v.method == Method::kBook) {
        ASSIGN_OR_RETURN(const unsigned grid,
                         GridFor(n, block * BookReductionUnroll(v.book), prop));
        first.function = BookReductionKernel(v.book, first.block.x);
        first.grid = dim3(grid);
      } else {
        first.function = ShuffleReductionKernel();
      }
    }
    s.fill = [max_value](int* d, size_t count, cudaStream_t stream) {
      return FillSeededInts(d, count, kSeed, max_value, stream);
    };
    s.restore_each_run = v.method == Method::kBook;  // the book's kernels reduce in place
    const int sm_count = prop.multiProcessorCount;
    s.choose_plan = [v, n, sm_count](ReductionPlan* plan) {
      return ChoosePlan(v, n, sm_count, plan);
    };
    s.run = [v](const ReductionArgs<int, int>& a, cudaStream_t stream) {
      return RunReduction(v, a, stream);
    };
    s.expected = [n, max_value] { return static_cast<int>(ReduceReference(n, kSeed, max_value)); };
    return MakeReductionCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(ReduceFamily);

}  // namespace
}  // namespace warpwatch::kernels
