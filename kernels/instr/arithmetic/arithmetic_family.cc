// instr.arithmetic: the Family (axes -> ComputeSpec). Work.flops counts the results the guide's
// table counts, FMAs twice (Work's convention); ResultsPerClockPerSm turns a median into the
// table's unit (arithmetic_throughput.h).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_values.h"
#include "kernels/instr/arithmetic/arithmetic_kernels.h"
#include "kernels/instr/arithmetic/arithmetic_recurrence.h"
#include "kernels/instr/arithmetic/arithmetic_reference.h"
#include "kernels/instr/arithmetic/arithmetic_throughput.h"
#include "kernels/instr/detail/compute_case.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, ArithmeticOp>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, ArithmeticOp>>{
      {"fp32_fma", ArithmeticOp::kFp32Fma},       {"fp64_fma", ArithmeticOp::kFp64Fma},
      {"half2_fma", ArithmeticOp::kHalf2Fma},     {"bf16x2_fma", ArithmeticOp::kBf16x2Fma},
      {"int32_add", ArithmeticOp::kInt32Add},     {"int32_mul", ArithmeticOp::kInt32Mul},
      {"int32_shift", ArithmeticOp::kInt32Shift},
  };
  return *table;
}

bool IsFma(ArithmeticOp op) {
  return op == ArithmeticOp::kFp32Fma || op == ArithmeticOp::kFp64Fma ||
         op == ArithmeticOp::kHalf2Fma || op == ArithmeticOp::kBf16x2Fma;
}

class ArithmeticFamily : public Family {
 public:
  std::string_view name() const override { return "instr.arithmetic"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const ArithmeticOp op, LookupVariant(point, Variants()));
    instr_detail::ComputeSpec s;
    s.key = point.Canonical();
    ASSIGN_OR_RETURN(s.n, AxisValue(point, "n"));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    s.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(s.grid, GridFor(s.n, block, prop));
    RETURN_IF_ERROR(CheckDeviceMemory(12.0 * static_cast<double>(s.n), prop));
    if (op == ArithmeticOp::kBf16x2Fma && prop.major < 8) {
      return FailedPreconditionError(s.key + ": bfloat16 arithmetic needs compute capability 8.0");
    }
    s.kernel = ArithmeticKernel(op);
    const int64_t n = s.n;
    const unsigned grid = s.grid;
    const unsigned block_threads = s.block;
    s.launch = [op, n, grid, block_threads](const float* d_in, double* d_out, cudaStream_t stream) {
      return LaunchArithmetic(op, d_in, d_out, n, grid, block_threads, stream);
    };
    s.reference = [op](int64_t t) {
      return ArithmeticReference(op, kSeed, t, kArithmeticIterations);
    };
    s.work.bytes = 12.0 * static_cast<double>(s.n);  // one float read, one double written
    s.work.flops = ArithmeticResults(s.n) * (IsFma(op) ? 2.0 : 1.0);
    return instr_detail::MakeComputeCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(ArithmeticFamily);

}  // namespace
}  // namespace warpwatch::kernels
