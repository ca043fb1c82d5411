// instr.intrinsics (guide 5.4.1 intrinsic functions): each standard function next to its
// intrinsic, timed on the same argument sweep (kernels/instr/detail/function_sweep.h), and each
// one's worst single-call error against double precision reported as max_error, so the speed and
// the accuracy it costs sit side by side.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/core/family.h"
#include "kernels/core/point_params.h"
#include "kernels/instr/detail/compute_case.h"
#include "kernels/instr/detail/function_sweep.h"
#include "kernels/instr/detail/function_sweep_spec.h"
#include "kernels/instr/intrinsics/intrinsics_domains.h"

namespace warpwatch::kernels {
namespace {

using instr_detail::MathFn;

const std::vector<std::pair<std::string_view, MathFn>>& Variants() {
  static const auto* table = new std::vector<std::pair<std::string_view, MathFn>>{
      {"sinf", MathFn::kSinf},          {"sinf_fast", MathFn::kSinfFast},
      {"expf", MathFn::kExpf},          {"expf_fast", MathFn::kExpfFast},
      {"fdiv", MathFn::kFdiv},          {"fdividef", MathFn::kFdividef},
      {"rsqrt_div", MathFn::kRsqrtDiv}, {"rsqrtf", MathFn::kRsqrtf},
  };
  return *table;
}

class IntrinsicsFamily : public Family {
 public:
  std::string_view name() const override { return "instr.intrinsics"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& prop) const override {
    ASSIGN_OR_RETURN(const MathFn fn, LookupVariant(point, Variants()));
    ASSIGN_OR_RETURN(instr_detail::ComputeSpec spec,
                     instr_detail::FunctionSweepSpec(point, prop, fn, IntrinsicsDomain(fn),
                                                     kIntrinsicsMaxCallError));
    return instr_detail::MakeComputeCase(std::move(spec));
  }
};

WARPWATCH_REGISTER_FAMILY(IntrinsicsFamily);

}  // namespace
}  // namespace warpwatch::kernels
