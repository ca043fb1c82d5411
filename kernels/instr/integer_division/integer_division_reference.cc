// CPU reference of instr.integer_division.
#include "kernels/instr/integer_division/integer_division_reference.h"

#include <cstring>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

DivisionOperands MakeDivisionOperands(uint32_t d) {
  DivisionOperands op;
  op.divisor = d;
  op.mask = d - 1;
  while ((uint32_t{1} << op.log2_divisor) < d) ++op.log2_divisor;
  return op;
}

double IntegerDivisionReference(uint64_t seed, int64_t t, uint32_t d, int iterations) {
  const float x = SeededFloat(seed, static_cast<uint64_t>(t));
  uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof(bits));
  return static_cast<double>(DivisionLoop<false>(bits, MakeDivisionOperands(d), iterations));
}

}  // namespace warpwatch::kernels
