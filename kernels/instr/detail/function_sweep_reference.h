// CPU side of the function sweep (function_sweep.h): the reference sums and the per-call accuracy
// of a math function against double precision.
#ifndef WARPWATCH_KERNELS_INSTR_DETAIL_FUNCTION_SWEEP_REFERENCE_H_
#define WARPWATCH_KERNELS_INSTR_DETAIL_FUNCTION_SWEEP_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "kernels/instr/detail/function_sweep.h"

namespace warpwatch::kernels::instr_detail {

// The function in double precision at float arguments x (and divisor y).
double ExactValue(MathFn fn, float x, float y);

// True when fn's error is judged absolute (sine: its values cross zero), else relative.
bool AbsoluteErrorFor(MathFn fn);

// The sum thread t stores, in double precision over the very arguments the kernel uses. The
// kernel's float sums and float functions differ from it by rounding: compare with a tolerance.
double SweepReference(MathFn fn, const SweepDomain& domain, uint64_t seed, int64_t t);

// Worst error of values[t] (the accuracy pass's output for inputs SeededFloat(seed, t)) against
// ExactValue, absolute or relative as AbsoluteErrorFor says.
double MaxFunctionError(MathFn fn, const SweepDomain& domain, uint64_t seed,
                        const std::vector<float>& values);

}  // namespace warpwatch::kernels::instr_detail

#endif  // WARPWATCH_KERNELS_INSTR_DETAIL_FUNCTION_SWEEP_REFERENCE_H_
