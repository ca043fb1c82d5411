// CPU reference of instr.arithmetic, and the 16-bit roundings it needs.
#ifndef WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_REFERENCE_H_
#define WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_REFERENCE_H_

#include <cstdint>

#include "kernels/instr/arithmetic/arithmetic_kernels.h"

namespace warpwatch::kernels {

// The double thread t stores for `op` when its input is SeededFloat(seed, t) and it runs
// `iterations` iterations (the kernels use kArithmeticIterations). Exact: fp32/fp64 FMAs are
// std::fma, 16-bit FMAs are the exact double result rounded once, as the hardware does.
double ArithmeticReference(ArithmeticOp op, uint64_t seed, int64_t t, int iterations);

// `v` rounded to the nearest IEEE binary16 value (ties to even), returned as a double.
// Precondition: |v| within half's normal range or zero (the reference's values are).
double RoundToHalf(double v);
// The same for bfloat16 (8 significant bits, float's exponent range).
double RoundToBfloat16(double v);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_REFERENCE_H_
