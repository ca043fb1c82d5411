// instr.intrinsics' argument ranges: where the guide documents each intrinsic's error bound.
#ifndef WARPWATCH_KERNELS_INSTR_INTRINSICS_INTRINSICS_DOMAINS_H_
#define WARPWATCH_KERNELS_INSTR_INTRINSICS_INTRINSICS_DOMAINS_H_

#include "kernels/instr/detail/function_sweep.h"

namespace warpwatch::kernels {

// sin: [-pi, pi) (+ the sweep's 0.25), __sinf's documented range; exp: [-4, 4.25); division and
// reciprocal square root: x in [0.5, 1.75), y in [0.75, 1.75).
inline instr_detail::SweepDomain IntrinsicsDomain(instr_detail::MathFn fn) {
  using instr_detail::MathFn;
  instr_detail::SweepDomain d;
  d.step = 1.0f / 1024;
  switch (fn) {
    case MathFn::kSinf:
    case MathFn::kSinfFast:
      d.scale = 6.28318530717958647692f;
      d.offset = 0;
      break;
    case MathFn::kExpf:
    case MathFn::kExpfFast:
      d.scale = 8;
      d.offset = 0;
      break;
    default:
      d.scale = 1;
      d.offset = 1;
      break;
  }
  return d;
}

// Verify's bound on one call's error (absolute for sine, relative otherwise): about 32 ulp at 1,
// far above every documented bound (2 ulp; __expf 2 + 1.17|x| ulp; __sinf 2^-21.41 absolute), so
// it catches a wrong function, while max_error reports the real figure.
// Measured on an H100 (2^20 threads x 256 calls; time, worst error): sinf 239 us, 7.9e-8 vs
// __sinf 73 us, 3.4e-7 (absolute); expf 92 us, 1.5e-7 vs __expf 81 us, 2.6e-7 (both are bound by
// the one MUFU.EX2 each call needs); x / y 150 us, 4.5e-8 vs __fdividef 43 us, 1.3e-7; 1 / sqrtf
// 204 us, 8.9e-8 vs rsqrtf 76 us, 1.2e-7 (relative).
inline constexpr double kIntrinsicsMaxCallError = 4e-6;

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_INTRINSICS_INTRINSICS_DOMAINS_H_
