// CPU reference of instr.arithmetic: the recurrences of arithmetic_recurrence.h on the host.
#include "kernels/instr/arithmetic/arithmetic_reference.h"

#include <cmath>

#include "kernels/core/seeded_values.h"
#include "kernels/instr/arithmetic/arithmetic_recurrence.h"

namespace warpwatch::kernels {
namespace {

// Rounds v to `bits` significant bits, ties to even (v normal in the target format).
double RoundToSignificantBits(double v, int bits) {
  if (v == 0) return v;
  int exponent = 0;
  std::frexp(v, &exponent);  // v = f * 2^exponent, 0.5 <= |f| < 1
  const double scale = std::ldexp(1.0, bits - exponent);
  return std::nearbyint(v * scale) / scale;  // default rounding mode: to nearest, ties to even
}

double Packed16Reference(double (*round)(double), float x, int iterations) {
  const double c = round(x);
  double sum = 0;
  for (int j = 0; j < kArithmeticChains; ++j) {
    double acc = round(ArithmeticStart(x, j));
    const double m = round(ArithmeticMultiplier(j));
    // acc * m + c is exact in double (11- or 8-bit significands), so one rounding is the FMA's.
    for (int i = 0; i < iterations; ++i) acc = round(acc * m + c);
    sum += acc;
  }
  return sum;
}

uint32_t IntStep(ArithmeticOp op, uint32_t u, uint32_t v) {
  switch (op) {
    case ArithmeticOp::kInt32Add:
      return u + v;
    case ArithmeticOp::kInt32Mul:
      return u * v;
    default:
      return HostFunnelShiftLeft(v, u, kArithmeticShift);
  }
}

}  // namespace

double RoundToHalf(double v) { return RoundToSignificantBits(v, 11); }
double RoundToBfloat16(double v) { return RoundToSignificantBits(v, 8); }

double ArithmeticReference(ArithmeticOp op, uint64_t seed, int64_t t, int iterations) {
  const float x = SeededFloat(seed, static_cast<uint64_t>(t));
  switch (op) {
    case ArithmeticOp::kFp32Fma: {
      double sum = 0;
      for (int j = 0; j < kArithmeticChains; ++j) {
        float acc = ArithmeticStart(x, j);
        const float m = ArithmeticMultiplier(j);
        for (int i = 0; i < iterations; ++i) acc = std::fma(acc, m, x);
        sum += static_cast<double>(acc);
      }
      return sum;
    }
    case ArithmeticOp::kFp64Fma: {
      double sum = 0;
      for (int j = 0; j < kArithmeticChains; ++j) {
        double acc = static_cast<double>(ArithmeticStart(x, j));
        const double m = ArithmeticMultiplier(j);
        for (int i = 0; i < iterations; ++i) acc = std::fma(acc, m, static_cast<double>(x));
        sum += acc;
      }
      return sum;
    }
    case ArithmeticOp::kHalf2Fma:
      return Packed16Reference(&RoundToHalf, x, iterations);
    case ArithmeticOp::kBf16x2Fma:
      return Packed16Reference(&RoundToBfloat16, x, iterations);
    case ArithmeticOp::kInt32Add:
    case ArithmeticOp::kInt32Mul:
    case ArithmeticOp::kInt32Shift: {
      uint32_t folded = 0;
      for (int p = 0; p < kArithmeticChains / 2; ++p) {
        uint32_t a = ArithmeticIntA(x, p);
        uint32_t b = ArithmeticIntB(x, p);
        for (int i = 0; i < iterations; ++i) {
          a = IntStep(op, a, b);
          b = IntStep(op, b, a);
        }
        folded ^= a ^ b;
      }
      return static_cast<double>(folded);
    }
  }
  return 0;
}

}  // namespace warpwatch::kernels
