// CPU reference of instr.type_conversion.
#include "kernels/instr/type_conversion/type_conversion_reference.h"

#include <cstring>

#include "kernels/core/seeded_values.h"
#include "kernels/instr/type_conversion/type_conversion_recurrence.h"

namespace warpwatch::kernels {

double TypeConversionReference(ConversionKind kind, uint64_t seed, int64_t t, int iterations) {
  const float x = SeededFloat(seed, static_cast<uint64_t>(t));
  uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof(bits));
  switch (kind) {
    case ConversionKind::kDoubleConstant:
    case ConversionKind::kFloatConstant: {
      double sum = 0;
      for (int j = 0; j < kConversionChains; ++j) {
        const float c = ConversionStart(x, j);
        float v = c;
        // In double, then rounded once: the value of both the FFMA and the double expression.
        for (int i = 0; i < iterations; ++i) {
          v = static_cast<float>(static_cast<double>(v) * 0.5 + static_cast<double>(c));
        }
        sum += static_cast<double>(v);
      }
      return sum;
    }
    case ConversionKind::kChar:
      return static_cast<double>(ConversionIntLoop<signed char>(bits, iterations));
    case ConversionKind::kShort:
      return static_cast<double>(ConversionIntLoop<short>(bits, iterations));
    case ConversionKind::kInt:
      return static_cast<double>(ConversionIntLoop<int>(bits, iterations));
  }
  return 0;
}

}  // namespace warpwatch::kernels
