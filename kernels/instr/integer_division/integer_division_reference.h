// CPU reference of instr.integer_division.
#ifndef WARPWATCH_KERNELS_INSTR_INTEGER_DIVISION_INTEGER_DIVISION_REFERENCE_H_
#define WARPWATCH_KERNELS_INSTR_INTEGER_DIVISION_INTEGER_DIVISION_REFERENCE_H_

#include <cstdint>

#include "kernels/instr/integer_division/integer_division_recurrence.h"

namespace warpwatch::kernels {

// The operands for divisor d; precondition: d is a power of two >= 1.
DivisionOperands MakeDivisionOperands(uint32_t d);

// What thread t stores (both variants store the same when d is a power of two): the division
// loop over the bits of SeededFloat(seed, t), computed with / and %.
double IntegerDivisionReference(uint64_t seed, int64_t t, uint32_t d, int iterations);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_INTEGER_DIVISION_INTEGER_DIVISION_REFERENCE_H_
