// CPU reference of instr.type_conversion.
#ifndef WARPWATCH_KERNELS_INSTR_TYPE_CONVERSION_TYPE_CONVERSION_REFERENCE_H_
#define WARPWATCH_KERNELS_INSTR_TYPE_CONVERSION_TYPE_CONVERSION_REFERENCE_H_

#include <cstdint>

#include "kernels/instr/type_conversion/type_conversion_kernels.h"

namespace warpwatch::kernels {

// What thread t stores for `kind` with input SeededFloat(seed, t). double_constant and
// float_constant store the same value (type_conversion_recurrence.h says why).
double TypeConversionReference(ConversionKind kind, uint64_t seed, int64_t t, int iterations);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_TYPE_CONVERSION_TYPE_CONVERSION_REFERENCE_H_
