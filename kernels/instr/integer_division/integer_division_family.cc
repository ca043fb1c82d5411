// instr.integer_division (guide 5.4.1 integer arithmetic): the Family (axes -> ComputeSpec).
// Work.flops counts one division and one remainder per step.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_values.h"
#include "kernels/instr/detail/compute_case.h"
#include "kernels/instr/integer_division/integer_division_kernels.h"
#include "kernels/instr/integer_division/integer_division_reference.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, bool>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, bool>>{
      {"div_mod", false},
      {"shift_mask", true},
  };
  return *table;
}

class IntegerDivisionFamily : public Family {
 public:
  std::string_view name() const override { return "instr.integer_division"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const bool shift, LookupVariant(point, Variants()));
    instr_detail::ComputeSpec s;
    s.key = point.Canonical();
    ASSIGN_OR_RETURN(s.n, AxisValue(point, "n"));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    ASSIGN_OR_RETURN(const int64_t divisor, AxisValue(point, "divisor", 1));
    if ((divisor & (divisor - 1)) != 0 || divisor > (int64_t{1} << 31)) {
      return InvalidArgumentError(s.key + ": divisor must be a power of two below 2^32");
    }
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    s.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(s.grid, GridFor(s.n, block, prop));
    RETURN_IF_ERROR(CheckDeviceMemory(12.0 * static_cast<double>(s.n), prop));
    const DivisionOperands op = MakeDivisionOperands(static_cast<uint32_t>(divisor));
    s.kernel = IntegerDivisionKernel(shift);
    const int64_t n = s.n;
    const unsigned grid = s.grid;
    const unsigned block_threads = s.block;
    s.launch = [shift, op, n, grid, block_threads](const float* d_in, double* d_out,
                                                   cudaStream_t stream) {
      return LaunchIntegerDivision(shift, op, d_in, d_out, n, grid, block_threads, stream);
    };
    s.reference = [op](int64_t t) {
      return IntegerDivisionReference(kSeed, t, op.divisor, kDivisionIterations);
    };
    s.work.bytes = 12.0 * static_cast<double>(s.n);
    s.work.flops = 2.0 * static_cast<double>(s.n) * kDivisionIterations * kDivisionChains;
    return instr_detail::MakeComputeCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(IntegerDivisionFamily);

}  // namespace
}  // namespace warpwatch::kernels
