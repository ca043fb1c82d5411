// CPU side of the function sweep.
#include "kernels/instr/detail/function_sweep_reference.h"

#include <cmath>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels::instr_detail {

double ExactValue(MathFn fn, float x, float y) {
  const double xd = x;
  switch (fn) {
    case MathFn::kSinf:
    case MathFn::kSinfFast:
      return std::sin(xd);
    case MathFn::kExpf:
    case MathFn::kExpfFast:
      return std::exp(xd);
    case MathFn::kFdiv:
    case MathFn::kFdividef:
      return xd / static_cast<double>(y);
    case MathFn::kRsqrtDiv:
    case MathFn::kRsqrtf:
      return 1.0 / std::sqrt(xd);
  }
  return 0;
}

bool AbsoluteErrorFor(MathFn fn) { return fn == MathFn::kSinf || fn == MathFn::kSinfFast; }

double SweepReference(MathFn fn, const SweepDomain& domain, uint64_t seed, int64_t t) {
  const float in = SeededFloat(seed, static_cast<uint64_t>(t));
  const float x0 = SweepStart(in, domain);
  const float y = SweepDivisor(in);
  double sum = 0;
  for (int j = 0; j < kSweepChains; ++j) {
    float x = SweepChainStart(x0, j, domain);
    for (int k = 0; k < kSweepCallsPerChain; ++k) {
      sum += ExactValue(fn, x, y);
      x = x + domain.step;
    }
  }
  return sum;
}

double MaxFunctionError(MathFn fn, const SweepDomain& domain, uint64_t seed,
                        const std::vector<float>& values) {
  double worst = 0;
  const bool absolute = AbsoluteErrorFor(fn);
  for (size_t t = 0; t < values.size(); ++t) {
    const float in = SeededFloat(seed, t);
    const double exact = ExactValue(fn, SweepStart(in, domain), SweepDivisor(in));
    double err = std::fabs(static_cast<double>(values[t]) - exact);
    if (!absolute) err /= std::fabs(exact);
    if (!(err <= worst)) worst = err;  // a NaN makes it NaN, which fails any bound
  }
  return worst;
}

}  // namespace warpwatch::kernels::instr_detail
