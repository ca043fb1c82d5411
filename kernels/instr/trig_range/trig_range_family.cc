// instr.trig_range (guide 5.4.1 sine and cosine): the same sinf sweep on arguments inside and
// outside the fast range reduction's limit; max_error is sinf's worst single-call error.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/family.h"
#include "kernels/core/point_params.h"
#include "kernels/instr/detail/compute_case.h"
#include "kernels/instr/detail/function_sweep.h"
#include "kernels/instr/detail/function_sweep_spec.h"
#include "kernels/instr/trig_range/trig_range_domains.h"

namespace warpwatch::kernels {
namespace {

const std::vector<std::pair<std::string_view, bool>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, bool>>{
      {"small_args", false},
      {"large_args", true},
  };
  return *table;
}

class TrigRangeFamily : public Family {
 public:
  std::string_view name() const override { return "instr.trig_range"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const bool large, LookupVariant(point, Variants()));
    ASSIGN_OR_RETURN(instr_detail::ComputeSpec spec,
                     instr_detail::FunctionSweepSpec(point, prop, instr_detail::MathFn::kSinf,
                                                     TrigRangeDomain(large), kTrigMaxCallError));
    return instr_detail::MakeComputeCase(std::move(spec));
  }
};

WARPWATCH_REGISTER_FAMILY(TrigRangeFamily);

}  // namespace
}  // namespace warpwatch::kernels
