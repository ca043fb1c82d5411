// Builds the ComputeSpec of one function-sweep point (instr.intrinsics, instr.trig_range): the
// timed sweep, its reference sums and the accuracy pass reported as max_error.
#ifndef WARPWATCH_KERNELS_INSTR_DETAIL_FUNCTION_SWEEP_SPEC_H_
#define WARPWATCH_KERNELS_INSTR_DETAIL_FUNCTION_SWEEP_SPEC_H_

#include <cuda_runtime_api.h>

#include "common/catalog/plan.h"
#include "common/status/status.h"
#include "kernels/instr/detail/compute_case.h"
#include "kernels/instr/detail/function_sweep.h"

namespace warpwatch::kernels::instr_detail {

// The spec for `point` (axes n and block_size) sweeping `fn` over `domain`. Verify fails when a
// thread's sum is off by more than kSweepSumTolerance (relative, or absolute below 1) or when one
// call's error exceeds `max_call_error`; max_error is the worst single-call error over all n
// inputs (absolute for sine, relative otherwise).
StatusOr<ComputeSpec> FunctionSweepSpec(const catalog::Point& point, const cudaDeviceProp& prop,
                                        MathFn fn, const SweepDomain& domain,
                                        double max_call_error);

inline constexpr double kSweepSumTolerance = 1e-4;

}  // namespace warpwatch::kernels::instr_detail

#endif  // WARPWATCH_KERNELS_INSTR_DETAIL_FUNCTION_SWEEP_SPEC_H_
