// The guide's throughput table for instr.arithmetic's operations (5.4.1).
#include "kernels/instr/arithmetic/arithmetic_throughput.h"

#include "kernels/instr/arithmetic/arithmetic_recurrence.h"

namespace warpwatch::kernels {

int GuideResultsPerClockPerSm(ArithmeticOp op, int major, int minor) {
  int column = -1;  // 0: 7.0, 1: 8.0, 2: 8.6, 3: 9.0
  if (major == 7 && minor == 0) column = 0;
  if (major == 8 && minor == 0) column = 1;
  if (major == 8 && minor == 6) column = 2;
  if (major == 9 && minor == 0) column = 3;
  if (column < 0) return 0;
  static constexpr int kFp16[] = {128, 256, 256, 256};
  static constexpr int kBf16[] = {0, 256, 256, 256};
  static constexpr int kFp32[] = {64, 64, 128, 128};
  static constexpr int kFp64[] = {32, 32, 2, 64};
  static constexpr int kIntAdd[] = {64, 64, 64, 64};
  static constexpr int kIntMul[] = {64, 64, 64, 64};
  static constexpr int kIntShift[] = {64, 64, 64, 64};
  switch (op) {
    case ArithmeticOp::kFp32Fma:
      return kFp32[column];
    case ArithmeticOp::kFp64Fma:
      return kFp64[column];
    case ArithmeticOp::kHalf2Fma:
      return kFp16[column];
    case ArithmeticOp::kBf16x2Fma:
      return kBf16[column];
    case ArithmeticOp::kInt32Add:
      return kIntAdd[column];
    case ArithmeticOp::kInt32Mul:
      return kIntMul[column];
    case ArithmeticOp::kInt32Shift:
      return kIntShift[column];
  }
  return 0;
}

double ArithmeticResults(int64_t threads) {
  return static_cast<double>(threads) * kArithmeticIterations * kArithmeticChains;
}

double ResultsPerClockPerSm(double results, double seconds, double sm_clock_mhz, int sm_count) {
  if (results <= 0 || seconds <= 0 || sm_clock_mhz <= 0 || sm_count <= 0) return 0;
  return results / (seconds * sm_clock_mhz * 1e6 * sm_count);
}

}  // namespace warpwatch::kernels
