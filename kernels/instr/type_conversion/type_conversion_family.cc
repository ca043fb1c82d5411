// instr.type_conversion (guide 5.4.1 type conversion): the Family (axes -> ComputeSpec).
// Work.flops counts the source's operations per step: multiply and add (2) for the float loops,
// shift, multiply and add (3) for the integer ones, whatever conversions the compiler adds.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/family.h"
#include "kernels/core/launch_limits.h"
#include "kernels/core/point_params.h"
#include "kernels/core/seeded_values.h"
#include "kernels/instr/detail/compute_case.h"
#include "kernels/instr/type_conversion/type_conversion_kernels.h"
#include "kernels/instr/type_conversion/type_conversion_recurrence.h"
#include "kernels/instr/type_conversion/type_conversion_reference.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, ConversionKind>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, ConversionKind>>{
      {"double_constant", ConversionKind::kDoubleConstant},
      {"float_constant", ConversionKind::kFloatConstant},
      {"char_arithmetic", ConversionKind::kChar},
      {"short_arithmetic", ConversionKind::kShort},
      {"int_arithmetic", ConversionKind::kInt},
  };
  return *table;
}

class TypeConversionFamily : public Family {
 public:
  std::string_view name() const override { return "instr.type_conversion"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const ConversionKind kind, LookupVariant(point, Variants()));
    instr_detail::ComputeSpec s;
    s.key = point.Canonical();
    ASSIGN_OR_RETURN(s.n, AxisValue(point, "n"));
    ASSIGN_OR_RETURN(const int64_t block, AxisValue(point, "block_size"));
    RETURN_IF_ERROR(CheckBlock(dim3(static_cast<unsigned>(block)), prop));
    s.block = static_cast<unsigned>(block);
    ASSIGN_OR_RETURN(s.grid, GridFor(s.n, block, prop));
    RETURN_IF_ERROR(CheckDeviceMemory(12.0 * static_cast<double>(s.n), prop));
    s.kernel = TypeConversionKernel(kind);
    const int64_t n = s.n;
    const unsigned grid = s.grid;
    const unsigned block_threads = s.block;
    s.launch = [kind, n, grid, block_threads](const float* d_in, double* d_out,
                                              cudaStream_t stream) {
      return LaunchTypeConversion(kind, d_in, d_out, n, grid, block_threads, stream);
    };
    s.reference = [kind](int64_t t) {
      return TypeConversionReference(kind, kSeed, t, kConversionIterations);
    };
    const bool is_float =
        kind == ConversionKind::kDoubleConstant || kind == ConversionKind::kFloatConstant;
    s.work.bytes = 12.0 * static_cast<double>(s.n);
    s.work.flops = (is_float ? 2.0 : 3.0) * static_cast<double>(s.n) * kConversionIterations *
                   kConversionChains;
    return instr_detail::MakeComputeCase(std::move(s));
  }
};

WARPWATCH_REGISTER_FAMILY(TypeConversionFamily);

}  // namespace
}  // namespace warpwatch::kernels
