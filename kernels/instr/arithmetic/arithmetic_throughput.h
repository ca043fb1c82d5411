// The CUDA C++ Programming Guide's throughput table (5.4.1 Arithmetic Instructions, "Throughput of
// Native Arithmetic Instructions (Number of Results per Clock Cycle per Multiprocessor)") for the
// operations instr.arithmetic measures, and the measured figure to put next to it. CUDA-free.
#ifndef WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_THROUGHPUT_H_
#define WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_THROUGHPUT_H_

#include <cstdint>

#include "kernels/instr/arithmetic/arithmetic_kernels.h"

namespace warpwatch::kernels {

// Results per clock per SM the guide's table lists for `op` on compute capability major.minor;
// 0 where the table has no figure (a capability not tabulated here, or N/A such as bfloat16 on
// 7.x). Rows: 16-bit floating-point add/multiply/multiply-add (half2 and bfloat162 count two
// results per instruction), 32- and 64-bit floating-point add/multiply/multiply-add, 32-bit
// integer add, 32-bit integer multiply, 32-bit integer shift. Columns: 7.0, 8.0, 8.6, 9.0.
//
// Measured on an H100 SXM (n = 2^22, median SM clock 1976-1979 MHz, 132 SMs), results/clock/SM
// against the table: fp32 115 (128), fp64 62 (64), half2 193 (256), bfloat162 153 (256), int32
// add 107 (64: ptxas spreads the adds over IADD3 on the ALU pipe, 76 % busy, and IMAD on the FMA
// pipe, 49 % busy), int32 multiply 63 (64), int32 funnel shift 62 (64). The 16-bit FMAs keep the
// FMA pipe 78 % (half2) and 62 % (bfloat162) busy: the table's figure is not reached.
int GuideResultsPerClockPerSm(ArithmeticOp op, int major, int minor);

// Results one Run() of a case with `threads` threads produces (kArithmeticChains results per
// thread per iteration; a half2 FMA counts two results, as the table does).
double ArithmeticResults(int64_t threads);

// The measured figure for the table: results / (seconds * SM clock in Hz * SM count). `seconds` is
// the case's median time, `sm_clock_mhz` the median SM clock recorded with its samples
// (Measurement.median_sm_clock_mhz). 0 when any input is not positive.
double ResultsPerClockPerSm(double results, double seconds, double sm_clock_mhz, int sm_count);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_THROUGHPUT_H_
